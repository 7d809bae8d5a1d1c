import { describe, expect, it } from "vitest";
import { imageReferenceProblem } from "./image-reference.ts";

describe("imageReferenceProblem", () => {
  it.each([
    "node:22",
    "ubuntu",
    "ghcr.io/example/agent:1.0",
    "registry.local:5000/team/agent",
    "localhost:5000/a__b/c--d:v1.2_rc-3",
    "[::1]:5000/agent:latest",
    `ghcr.io/example/agent@sha256:${"a".repeat(64)}`,
    `ghcr.io/example/agent:1.0@sha256:${"0".repeat(64)}`,
  ])("accepts %s", (image) => {
    expect(imageReferenceProblem(image)).toBeNull();
  });

  it.each([
    ["ghcr.io/Example/agent", "lower case"],
    ["agent:", "image reference such as"],
    ["agent:-tag", "image reference such as"],
    ["-agent", "image reference such as"],
    ["agent@sha256:abc", "image reference such as"],
    ["agent; rm -rf /", "image reference such as"],
    [`ghcr.io/${"a".repeat(300)}`, "at most 255"],
    [`agent:${"t".repeat(129)}`, "image reference such as"],
  ])("refuses %s", (image, why) => {
    expect(imageReferenceProblem(image)).toContain(why);
  });
});
