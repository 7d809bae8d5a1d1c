import { describe, expect, it } from "vitest";
import { mountPathProblem, pathsOverlap, subPathProblem } from "./mount-paths.ts";

describe("mountPathProblem", () => {
  it.each(["/sandbox", "/data/cache", "/home/agent/.claude"])("accepts %s", (path) => {
    expect(mountPathProblem(path)).toBeNull();
  });

  it.each([
    ["sandbox", "absolute"],
    ["/", "cannot be /"],
    ["/data/", "end with '/'"],
    ["/data//x", "'//'"],
    ["/data/../etc", "'..'"],
    ["/data/./x", "'.'"],
  ])("refuses %s", (path, why) => {
    expect(mountPathProblem(path)).toContain(why);
  });
});

describe("subPathProblem", () => {
  it.each(["projects/a", "a..b", ".cache"])("accepts %s", (subPath) => {
    expect(subPathProblem(subPath)).toBeNull();
  });

  it("refuses an absolute subPath", () => {
    expect(subPathProblem("/etc")).toContain("relative");
  });

  it("refuses a subPath that climbs out with ..", () => {
    expect(subPathProblem("a/../../b")).toContain("'..'");
  });
});

describe("pathsOverlap", () => {
  it("treats equal paths as overlapping", () => {
    expect(pathsOverlap("/a", "/a")).toBe(true);
  });

  it("treats a path inside another as overlapping, in either order", () => {
    expect(pathsOverlap("/a/b", "/a")).toBe(true);
    expect(pathsOverlap("/a", "/a/b")).toBe(true);
  });

  it("does not confuse a shared prefix with nesting", () => {
    expect(pathsOverlap("/data", "/database")).toBe(false);
  });
});
