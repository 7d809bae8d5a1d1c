import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { whyBuild } from "./build-staleness.ts";

// `npm start` builds only when it must: a project tree of files with set times each.

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A file at `relative`, last changed `minutesAgo`. */
function file(relative: string, minutesAgo: number): void {
  const full = path.join(root, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, "");
  const at = new Date(Date.now() - minutesAgo * 60_000);
  utimesSync(full, at, at);
}

function aProject(): void {
  root = mkdtempSync(path.join(tmpdir(), "berth-staleness-"));
  file("app/page.tsx", 30);
  file("lib/domain/spec.ts", 30);
  file(".next/standalone/server.js", 10);
}

describe("whether npm start builds first", () => {
  it("builds when there is no build", () => {
    root = mkdtempSync(path.join(tmpdir(), "berth-staleness-"));
    file("app/page.tsx", 30);
    expect(whyBuild(root)).toBe("there is no standalone build yet");
  });

  it("starts at once when the build is newer than every source", () => {
    aProject();
    expect(whyBuild(root)).toBeNull();
  });

  it("builds again when a source changed since", () => {
    aProject();
    file("lib/domain/spec.ts", 1);
    expect(whyBuild(root)).toBe("lib changed since the last build");
  });

  it("does not build for a changed test", () => {
    aProject();
    file("lib/domain/spec.test.ts", 1);
    expect(whyBuild(root)).toBeNull();
  });
});
