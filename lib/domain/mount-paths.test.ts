import { describe, expect, it } from "vitest";
import { mountPathProblem, pathsOverlap, subPathProblem } from "./mount-paths.ts";

describe("mountPathProblem", () => {
  it.each(["/sandbox", "/data/cache", "/home/agent/.claude", "/etc/agent", "/usr/local/work", "/root", "/tmp"])("accepts %s", (path) => {
    expect(mountPathProblem(path)).toBeNull();
  });

  it.each([
    ["sandbox", "absolute"],
    ["/", "cannot be /"],
    ["/data/", "end with '/'"],
    ["/data//x", "'//'"],
    ["/data/../etc", "'..'"],
    ["/data/./x", "'.'"],
    ["/proc", "inside /proc"],
    ["/sys/fs/cgroup", "inside /sys"],
    ["/dev/shm", "inside /dev"],
    ["/var/run/secrets/kubernetes.io", "inside /var/run/secrets"],
    ["/etc", "hide the image's own programs"],
    ["/usr", "hide the image's own programs"],
    ["/data/$(reboot)", "no spaces, quotes"],
    ["/data/my work", "no spaces, quotes"],
    ["/data/it's", "no spaces, quotes"],
    ["/data\nrm -rf /", "no spaces, quotes"],
    [`/${"a".repeat(600)}`, "at most 512"],
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
