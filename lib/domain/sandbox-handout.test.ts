import { describe, expect, it } from "vitest";
import { handoutOf, LAUNCH_TYPE_LABEL } from "./sandbox-handout.ts";

// Where a Sandbox stands with agent-sandbox's extensions, read from its controller owner.

const owned = (kind: string, name: string, labels: Record<string, string> = {}, sandboxName = "python-x7k2q") => ({
  metadata: { name: sandboxName, labels, ownerReferences: [{ apiVersion: "extensions.agents.x-k8s.io/v1beta1", kind, name, controller: true }] },
});

describe("a Sandbox's hand-out", () => {
  it("is waiting in the pool that controls it", () => {
    expect(handoutOf(owned("SandboxWarmPool", "python"))).toEqual({ pool: "python", claim: null, launchType: null });
  });

  it("is with the claim that controls it, warm or cold as labelled", () => {
    expect(handoutOf(owned("SandboxClaim", "mine", { [LAUNCH_TYPE_LABEL]: "warm" }))).toEqual({ pool: null, claim: "mine", launchType: "warm" });
  });

  it("has no launch type while its label holds a word it does not know", () => {
    expect(handoutOf(owned("SandboxClaim", "mine", { [LAUNCH_TYPE_LABEL]: "lukewarm" }))?.launchType).toBeNull();
  });

  it.each([
    ["cold, named like its claim", "mine", "cold"],
    ["warm, named as a pool member", "python-x7k2q", "warm"],
  ])("without the label, is read by its name: %s", (_, sandboxName, launchType) => {
    expect(handoutOf(owned("SandboxClaim", "mine", {}, sandboxName))?.launchType).toBe(launchType);
  });

  it("is nothing for a Sandbox no extension controls", () => {
    expect(handoutOf({ metadata: { ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "x", controller: true }] } })).toBeNull();
  });
});
