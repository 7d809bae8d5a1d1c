import { describe, expect, it } from "vitest";
import type { MaintenancePreview, PodDrainPreview } from "@/lib/domain/maintenance-preview.ts";
import { nextForRun, nextForStep, previewSummary, resumedNote } from "./maintenance-words.ts";

const pod = (name: string, outcome: PodDrainPreview["outcome"], sandbox: boolean, checkpointedFirst = false): PodDrainPreview => ({
  namespace: "default",
  pod: name,
  sandbox: sandbox ? { id: `id-${name}`, name } : null,
  outcome,
  checkpointedFirst,
  message: "",
});

const preview = (pods: PodDrainPreview[]): MaintenancePreview => ({ node: "worker-1", cordoned: false, otherSchedulableNodes: ["worker-2"], pods });

describe("the confirmation's summary of a drain preview", () => {
  it("counts each outcome and says which sandboxes are protected", () => {
    expect(previewSummary(preview([pod("a", "moves", true, true), pod("b", "moves", true), pod("c", "waitsForNode", true), pod("dns", "evicted", false)]))).toEqual([
      "worker-1 is cordoned first: nothing new is scheduled on it.",
      expect.stringContaining("3 sandboxes are checkpointed, then evicted"),
      "2 sandboxes move to another node, workspace and all.",
      expect.stringContaining("1 sandbox waits for worker-1: the volume is pinned there"),
      expect.stringContaining("1 sandbox is protected by a PodDisruptionBudget"),
      "1 other pod is evicted as kubectl drain would.",
    ]);
  });

  it("says so when no sandbox runs on the node", () => {
    expect(previewSummary(preview([]))).toEqual(["worker-1 is cordoned first: nothing new is scheduled on it.", "No sandbox runs on it."]);
  });
});

describe("what happens next", () => {
  it("a blocked sandbox stays on the node; the operator fixes the hook or stops it, since its policy cannot change", () => {
    expect(nextForStep({ step: "WaitingForOperator", message: "Checkpoint Failed" }, "worker-1")).toMatch(/keeps running on worker-1 and was not evicted\. Fix its checkpoint hook .* or stop it \(its claims are kept\)\.$/);
  });

  it("an eviction a budget kept refusing points at the PodDisruptionBudget", () => {
    expect(nextForStep({ step: "Failed", message: "Its eviction was still refused after 300 s" }, "worker-1")).toContain("kubectl get pdb");
  });

  it("a sandbox on its way needs nothing", () => {
    expect(nextForStep({ step: "Evicting", message: "" }, "worker-1")).toBeNull();
  });

  it("a finished run says to uncordon the node when the work is done", () => {
    expect(nextForRun("Succeeded", "worker-1")).toContain("kubectl uncordon worker-1");
  });
});

describe("a run taken up again by another console", () => {
  it("says how often it was resumed and who runs it now", () => {
    expect(resumedNote(2, "berth-7d9f/4c1a")).toBe("resumed once after the console running it stopped; now run by berth-7d9f/4c1a");
  });

  it("counts several resumptions", () => {
    expect(resumedNote(4, null)).toBe("resumed 3 times after the console running it stopped");
  });
});
