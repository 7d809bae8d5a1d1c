import { describe, expect, it } from "vitest";
import type { DrainReport } from "../domain/simulator.ts";
import { describeDrain } from "./simulator-actions.ts";

// What the Simulator page says a drain did, from the embedded cluster's report.

function aDrainReport(overrides: Partial<DrainReport> = {}): DrainReport {
  return { node: "worker-1", cordoned: true, evicted: [], refused: [], refusals: [], blocked: [], terminating: [], completed: true, log: [], ...overrides };
}

describe("what a drain did, in words", () => {
  it("names the pods refused and kubectl's reason", () => {
    const report = aDrainReport({ refused: ["default/bare"], refusals: ["cannot delete Pods that declare no controller (use --force to override): default/bare"], completed: false });
    expect(describeDrain(report)).toBe("The drain of worker-1 was refused for default/bare: cannot delete Pods that declare no controller (use --force to override): default/bare. Nothing was evicted, but the node is cordoned.");
  });

  it("says which pods a budget kept on the node", () => {
    expect(describeDrain(aDrainReport({ blocked: ["default/guarded"], completed: false }))).toContain("default/guarded blocked — a PodDisruptionBudget");
  });

  it("does not call a drain done while evicted pods are still terminating", () => {
    expect(describeDrain(aDrainReport({ evicted: ["default/slow"], terminating: ["default/slow"], completed: false }))).toMatch(/^The drain of worker-1 timed out: default\/slow evicted but still terminating/);
  });

  it("says the evicted pods are gone once it is done", () => {
    expect(describeDrain(aDrainReport({ evicted: ["default/box"] }))).toMatch(/^worker-1 drained: default\/box evicted and gone;/);
  });
});
