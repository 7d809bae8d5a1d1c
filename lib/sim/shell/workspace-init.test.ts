import { describe, expect, it } from "vitest";
import { workspaceInitContainer } from "../../render/workspace-init.ts";
import { imageRootFor } from "../filesystem/image-catalogue.ts";
import { PodFileSystem } from "../filesystem/pod-file-system.ts";
import { VolumeData } from "../filesystem/volume-data.ts";
import { runCommand } from "./run-command.ts";
import { SANDBOX_IMAGE } from "./test-fixtures.ts";

/** The command exactly as Berth renders it (see lib/render/testdata/pvc-template-default.golden.yaml). */
const seedCommand = workspaceInitContainer(SANDBOX_IMAGE, "/sandbox").command ?? [];

function podWith(workspace: VolumeData, image = SANDBOX_IMAGE) {
  const root = imageRootFor(image);
  return {
    initContainer: new PodFileSystem({ root: root.clone(), mounts: [{ mountPath: "/mnt/berth-workspace", volume: workspace }] }),
    agent: new PodFileSystem({ root, mounts: [{ mountPath: "/sandbox", volume: workspace }] }),
  };
}

const run = (argv: string[], fs: PodFileSystem) => runCommand(argv, { fs, sleep: async () => {} });

describe("the workspace-init container's script", () => {
  it("is the rendered `sh -c` command", () => {
    expect(seedCommand.slice(0, 2)).toEqual(["sh", "-c"]);
    expect(seedCommand[2]).toContain("tar -C /sandbox -cf - . | tar -C /mnt/berth-workspace -xpf -");
  });

  it("seeds an empty workspace from the image's /sandbox and leaves the sentinel", async () => {
    const workspace = VolumeData.empty(0);
    const pod = podWith(workspace);
    expect(await run(seedCommand, pod.initContainer)).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    expect(workspace.list("/")).toEqual([".bashrc", ".config", ".local", ".profile", ".workspace-initialized", "README.md"]);
    expect(workspace.readText("README.md")).toBe(imageRootFor(SANDBOX_IMAGE).readText("/sandbox/README.md"));
    expect((await run(["cat", "/sandbox/README.md"], pod.agent)).stdout).toContain(SANDBOX_IMAGE);
  });

  it("keeps the image's modification times", async () => {
    const workspace = VolumeData.empty(0);
    await run(seedCommand, podWith(workspace).initContainer);
    expect(workspace.lookup("README.md")?.mtimeMs).toBe(imageRootFor(SANDBOX_IMAGE).lookup("/sandbox/README.md")?.mtimeMs);
  });

  it("seeds only once: the sentinel keeps a replacement pod from reverting the agent's changes", async () => {
    const workspace = VolumeData.empty(0);
    const first = podWith(workspace);
    await run(seedCommand, first.initContainer);
    await run(["sh", "-c", "echo 'my notes' > /sandbox/README.md && rm /sandbox/.bashrc && echo work > /sandbox/work.txt"], first.agent);

    const replacement = podWith(workspace);
    expect((await run(seedCommand, replacement.initContainer)).exitCode).toBe(0);
    expect((await run(["cat", "/sandbox/README.md", "/sandbox/work.txt"], replacement.agent)).stdout).toBe("my notes\nwork\n");
    expect(workspace.lookup(".bashrc")).toBeUndefined();
  });

  it("seeds a fresh emptyDir at every pod start", async () => {
    for (let start = 0; start < 2; start += 1) {
      const emptyDir = VolumeData.empty(0);
      await run(seedCommand, podWith(emptyDir).initContainer);
      expect(emptyDir.list("/")).toContain("README.md");
    }
  });

  it("only marks the workspace for an image without /sandbox", async () => {
    const workspace = VolumeData.empty(0);
    expect((await run(seedCommand, podWith(workspace, "busybox:1.36").initContainer)).exitCode).toBe(0);
    expect(workspace.list("/")).toEqual([".workspace-initialized"]);
  });

  it("fails, and leaves no sentinel, when the workspace cannot be written", async () => {
    const workspace = VolumeData.empty(0);
    const fs = new PodFileSystem({ root: imageRootFor(SANDBOX_IMAGE), mounts: [{ mountPath: "/mnt/berth-workspace", volume: workspace, readOnly: true }] });
    const result = await run(seedCommand, fs);
    // The failed extraction fails the `if`, so `&& touch` never runs and the next start tries again.
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("tar: ./README.md: Cannot open: Read-only file system\n");
    expect(result.stderr).toMatch(/tar: Exiting with failure status due to previous errors\n$/);
    expect(workspace.list("/")).toEqual([]);
  });
});
