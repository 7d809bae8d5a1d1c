import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { STATE_MARKER_PATH } from "../domain/durable-state.ts";
import { workspaceSeedScript } from "../render/workspace-init.ts";
import { readMarkerScript, writeMarkerScript } from "./state-marker.ts";

// The scripts Berth runs in a sandbox's containers, run here by a real sh with a mount path as
// hostile as can be written: the path is used as a path, and nothing in it is run.

const root = mkdtempSync(path.join(tmpdir(), "berth-marker-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sh = (script: string) => spawnSync("sh", ["-c", script], { cwd: root, encoding: "utf8" });
const marker = { sandboxId: "11111111-1111-4111-8111-111111111111", podUid: "pod-1", writtenAt: "2026-12-03T09:00:00.000Z", writtenOn: "ready" as const };

/** A directory name built to break out of a script that pasted it in: every one touches `pwned`. */
const injection = fc.constantFrom("; touch pwned", "$(touch pwned)", "`touch pwned`", "x' ; touch pwned; '", 'x" ; touch pwned; "', "\ntouch pwned\n", "&& touch pwned", "| touch pwned");

let count = 0;
const workspaceNamed = (suffix: string) => path.join(root, `ws${++count}${suffix}`);

describe("the state marker scripts", () => {
  it("write the marker under the mount path and run nothing from it", () => {
    fc.assert(
      fc.property(injection, (suffix) => {
        const workspace = workspaceNamed(suffix);
        expect(sh(writeMarkerScript(workspace, marker)).status).toBe(0);
        expect(JSON.parse(readFileSync(path.join(workspace, STATE_MARKER_PATH), "utf8"))).toEqual(marker);
        expect(existsSync(path.join(root, "pwned"))).toBe(false);
      }),
    );
  });

  it("read back what was written, and exit 3 where there is none", () => {
    const workspace = workspaceNamed("$(touch pwned) it's");
    expect(sh(readMarkerScript(workspace)).status).toBe(3);
    sh(writeMarkerScript(workspace, marker));
    expect(JSON.parse(sh(readMarkerScript(workspace)).stdout)).toEqual(marker);
    expect(existsSync(path.join(root, "pwned"))).toBe(false);
  });
});

describe("the workspace seed script", () => {
  it("copies the image's workspace from a hostile mount path, and runs nothing from it", () => {
    fc.assert(
      fc.property(injection, (suffix) => {
        const workspace = workspaceNamed(suffix);
        const seed = workspaceNamed("-seed");
        mkdirSync(workspace);
        mkdirSync(seed);
        writeFileSync(path.join(workspace, "README"), "from the image");
        expect(sh(workspaceSeedScript(workspace, seed)).status).toBe(0);
        expect(readFileSync(path.join(seed, "README"), "utf8")).toBe("from the image");
        expect(existsSync(path.join(root, "pwned"))).toBe(false);
      }),
    );
  });
});
