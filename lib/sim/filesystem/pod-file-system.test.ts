import { describe, expect, it } from "vitest";
import { imageRootFor } from "./image-catalogue.ts";
import { PodFileSystem } from "./pod-file-system.ts";
import { VolumeData } from "./volume-data.ts";

const IMAGE = "ghcr.io/nvidia/openshell-community/sandboxes/base:latest";

function setup() {
  let now = 1_000_000;
  const workspace = VolumeData.empty(0);
  const config = VolumeData.empty(0);
  config.writeText("/app/settings.json", "{}", 0);
  const fs = new PodFileSystem({
    root: imageRootFor(IMAGE),
    mounts: [
      { mountPath: "/sandbox", volume: workspace },
      { mountPath: "/etc/app", volume: config, readOnly: true, subPath: "app" },
    ],
    clock: () => now,
  });
  return { fs, workspace, config, tick: (ms: number) => (now += ms), now: () => now };
}

describe("PodFileSystem path resolution", () => {
  it("resolves . and .. against the cwd and never climbs above /", () => {
    const { fs } = setup();
    expect(fs.resolve("../tmp/./x", "/sandbox")).toBe("/tmp/x");
    expect(fs.resolve("../../../..", "/a/b")).toBe("/");
    expect(fs.resolve("/sandbox/")).toBe("/sandbox");
  });

  it("sends each path to the volume with the longest mount prefix", () => {
    const { fs, workspace, config } = setup();
    fs.writeFile("/sandbox/a.txt", "in the workspace");
    expect(workspace.readText("/a.txt")).toBe("in the workspace");
    expect(fs.readFile("/etc/app/settings.json")).toBe("{}");
    expect(fs.readFile("/etc/hostname")).toBe("localhost\n");
    expect(config.list("/")).toEqual(["app"]);
  });

  it("hides the image's files under a mount point", () => {
    const { fs } = setup();
    expect(fs.readdir("/sandbox")).toEqual([]);
    expect(fs.isMountPoint("/sandbox")).toBe(true);
  });

  it("creates missing mount points and subPath directories", () => {
    const root = VolumeData.empty(0);
    const data = VolumeData.empty(0);
    const fs = new PodFileSystem({ root, mounts: [{ mountPath: "/mnt/berth-workspace", volume: data, subPath: "seed/here" }] });
    expect(fs.readdir("/mnt")).toEqual(["berth-workspace"]);
    expect(data.list("/seed")).toEqual(["here"]);
    fs.writeFile("/mnt/berth-workspace/x", "1");
    expect(data.readText("/seed/here/x")).toBe("1");
  });
});

describe("PodFileSystem operations", () => {
  it("writes, appends, reads and stamps mtimes from the injected clock", () => {
    const { fs, tick, now } = setup();
    fs.writeFile("/sandbox/log", "one\n");
    tick(5_000);
    fs.writeFile("/sandbox/log", "two\n", { append: true });
    expect(fs.readFile("log", { cwd: "/sandbox" })).toBe("one\ntwo\n");
    expect(fs.stat("/sandbox/log")).toMatchObject({ kind: "file", size: 8, mtimeMs: now() });
    fs.writeFile("/sandbox/log", "fresh");
    expect(fs.readFile("/sandbox/log")).toBe("fresh");
  });

  it("fails like the kernel does", () => {
    const { fs } = setup();
    expect(() => fs.readFile("/sandbox/missing")).toThrow("No such file or directory");
    expect(() => fs.readFile("/sandbox")).toThrow("Is a directory");
    fs.writeFile("/sandbox/file", "x");
    expect(() => fs.readFile("/sandbox/file/inner")).toThrow("Not a directory");
    expect(() => fs.writeFile("/sandbox/no/such/dir/file", "x")).toThrow("No such file or directory");
    expect(() => fs.mkdir("/sandbox/file")).toThrow("File exists");
    expect(() => fs.mkdir("/sandbox/file", { parents: true })).toThrow("File exists");
    expect(() => fs.writeFile("/etc/app/settings.json", "{}")).toThrow("Read-only file system");
    expect(() => fs.touch("/etc/app/new")).toThrow("Read-only file system");
    expect(() => fs.remove("/etc/app/settings.json")).toThrow("Read-only file system");
    expect(() => fs.readdir("/sandbox/file")).toThrow("Not a directory");
  });

  it("makes directories with and without parents", () => {
    const { fs, workspace } = setup();
    expect(() => fs.mkdir("/sandbox/a/b")).toThrow("No such file or directory");
    fs.mkdir("/sandbox/a/b/c", { parents: true });
    fs.mkdir("/sandbox/a/b/c", { parents: true });
    expect(workspace.list("/a/b")).toEqual(["c"]);
    expect(() => fs.mkdir("/sandbox/a")).toThrow("File exists");
  });

  it("removes files and trees, and keeps busy mount points", () => {
    const { fs, workspace } = setup();
    fs.mkdir("/sandbox/dir/sub", { parents: true });
    fs.writeFile("/sandbox/dir/sub/f", "x");
    expect(() => fs.remove("/sandbox/dir")).toThrow("Is a directory");
    fs.remove("/sandbox/dir", { recursive: true });
    expect(workspace.list("/")).toEqual([]);
    expect(() => fs.remove("/sandbox/dir")).toThrow("No such file or directory");
    fs.remove("/sandbox/dir", { force: true });

    fs.writeFile("/sandbox/keep-me-not", "x");
    expect(() => fs.remove("/sandbox", { recursive: true })).toThrow("Device or resource busy");
    expect(workspace.list("/")).toEqual([]);
    expect(fs.stat("/sandbox").kind).toBe("directory");
  });

  it("touches existing files without changing them and creates missing ones empty", () => {
    const { fs, tick, now } = setup();
    fs.writeFile("/sandbox/f", "content");
    tick(60_000);
    fs.touch("/sandbox/f");
    fs.touch("/sandbox/g");
    expect(fs.readFile("/sandbox/f")).toBe("content");
    expect(fs.stat("/sandbox/f").mtimeMs).toBe(now());
    expect(fs.readFile("/sandbox/g")).toBe("");
  });

  it("treats /dev/null as the null device", () => {
    const { fs } = setup();
    fs.writeFile("/dev/null", "discarded");
    expect(fs.readFile("/dev/null")).toBe("");
    expect(fs.stat("/dev/null").kind).toBe("device");
  });

  it("refuses writes anywhere on a read-only root but not on its writable mounts", () => {
    const workspace = VolumeData.empty(0);
    const fs = new PodFileSystem({ root: imageRootFor(IMAGE), readOnlyRoot: true, mounts: [{ mountPath: "/sandbox", volume: workspace }] });
    expect(() => fs.writeFile("/tmp/x", "x")).toThrow("Read-only file system");
    fs.writeFile("/sandbox/x", "x");
    expect(workspace.readText("x")).toBe("x");
  });

  it("lets a PVC's volume outlive the pod while the next pod gets a fresh image root", () => {
    const claim = VolumeData.empty(0);
    const first = new PodFileSystem({ root: imageRootFor(IMAGE), mounts: [{ mountPath: "/sandbox", volume: claim }] });
    first.writeFile("/sandbox/work.txt", "kept");
    first.writeFile("/tmp/scratch", "lost");
    const second = new PodFileSystem({ root: imageRootFor(IMAGE), mounts: [{ mountPath: "/sandbox", volume: claim }] });
    expect(second.readFile("/sandbox/work.txt")).toBe("kept");
    expect(second.exists("/tmp/scratch")).toBe(false);
  });
});

describe("PodFileSystem and the volume's saved JSON", () => {
  const writes: [string, (fs: PodFileSystem) => void][] = [
    ["writeFile", (fs) => fs.writeFile("/sandbox/a.txt", "new")],
    ["mkdir", (fs) => fs.mkdir("/sandbox/dir")],
    ["touch", (fs) => fs.touch("/sandbox/seen")],
    ["setAttributes", (fs) => fs.setAttributes("/sandbox/kept.txt", { mode: 0o600 })],
    ["remove", (fs) => fs.remove("/sandbox/kept.txt")],
  ];
  it.each(writes)("%s reaches the JSON saved for the volume", (_, write) => {
    const { fs, workspace } = setup();
    fs.writeFile("/sandbox/kept.txt", "kept");
    const before = workspace.toJSONText();
    write(fs);
    expect(workspace.toJSONText()).not.toBe(before);
    expect(workspace.toJSONText()).toBe(JSON.stringify(workspace.toJSON()));
  });
});
