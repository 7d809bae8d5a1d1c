import { describe, expect, it } from "vitest";
import { evictionProtectionAnnotation } from "./labels.ts";
import { handoutOf, LAUNCH_TYPE_LABEL, podSelectorOf, protectionAskedAtHandout } from "./sandbox-handout.ts";

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

describe("eviction protection asked of a template's sandbox", () => {
  const marked = (kind: string, mark?: string) => ({
    ...owned(kind, kind === "SandboxClaim" ? "mine" : "python"),
    spec: { podTemplate: { metadata: { annotations: mark === undefined ? {} : { [evictionProtectionAnnotation("berth.dev")]: mark } } } },
  });

  it("is asked once the sandbox is handed to a claim", () => {
    expect(protectionAskedAtHandout(marked("SandboxClaim", "true"), "berth.dev")).toBe(true);
  });

  it("is not asked while the sandbox waits in its pool", () => {
    expect(protectionAskedAtHandout(marked("SandboxWarmPool", "true"), "berth.dev")).toBe(false);
  });

  it("is not asked of a sandbox whose template did not mark it", () => {
    expect(protectionAskedAtHandout(marked("SandboxClaim"), "berth.dev")).toBe(false);
  });
});

describe("the labels a Sandbox's pods carry", () => {
  it("are read from the selector in its status", () => {
    expect(podSelectorOf({ status: { selector: "agents.x-k8s.io/sandbox-name-hash=1a2b3c4d" } })).toEqual({ "agents.x-k8s.io/sandbox-name-hash": "1a2b3c4d" });
  });

  it("are unknown before the Sandbox has a pod", () => {
    expect(podSelectorOf({ status: {} })).toBeNull();
  });

  it("are not guessed from a selector that is not plain equality", () => {
    expect(podSelectorOf({ status: { selector: "tier in (a,b)" } })).toBeNull();
  });
});
