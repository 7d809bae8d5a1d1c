import { describe, expect, it } from "vitest";
import { COMMUNITY_BASE_IMAGE } from "../../domain/profiles.ts";
import { imageRepository, imageRootFor, isSandboxImage } from "./image-catalogue.ts";

describe("imageRootFor", () => {
  it("gives the community sandbox image a seeded /sandbox next to the usual basics", () => {
    const root = imageRootFor(COMMUNITY_BASE_IMAGE);
    expect(root.list("/sandbox")).toEqual([".bashrc", ".config", ".local", ".profile", "README.md"]);
    expect(root.readText("/sandbox/README.md")).toContain(COMMUNITY_BASE_IMAGE);
    expect(root.list("/bin")).toContain("sh");
    expect(root.readText("/etc/hostname")).toBe("localhost\n");
    expect(root.lookup("/tmp")).toMatchObject({ kind: "directory", mode: 0o1777 });
  });

  it("treats unknown images as sandbox images and plain base images as plain", () => {
    expect(isSandboxImage("ghcr.io/example/agent:1.0")).toBe(true);
    expect(isSandboxImage("busybox:1.36")).toBe(false);
    expect(isSandboxImage("docker.io/library/ubuntu@sha256:abc")).toBe(false);
    expect(imageRootFor("busybox").lookup("/sandbox")).toBeUndefined();
  });

  it("hands out an independent root every time", () => {
    const first = imageRootFor(COMMUNITY_BASE_IMAGE);
    first.writeText("/sandbox/README.md", "changed", 0);
    expect(imageRootFor(COMMUNITY_BASE_IMAGE).readText("/sandbox/README.md")).not.toBe("changed");
  });

  it("reads the repository out of a reference with a registry port, tag or digest", () => {
    expect(imageRepository("localhost:5000/agent:2")).toBe("localhost:5000/agent");
    expect(imageRepository("localhost:5000/agent")).toBe("localhost:5000/agent");
    expect(imageRepository("alpine@sha256:00")).toBe("alpine");
  });
});
