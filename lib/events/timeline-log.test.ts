import { describe, expect, it } from "vitest";
import type { TimelineEvent } from "../domain/timeline.ts";
import { timelineLogEntry } from "./timeline-log.ts";

// What the server log says of timeline events: the sandbox, where, what happened to which pod
// on which node, how long it took — and disruptions at warn, so a pipeline can alert on them.

const about = { namespace: "team-a", name: "agent-1" };
const anEvent = (type: TimelineEvent["type"], reason: string, data: Record<string, unknown>): TimelineEvent =>
  ({ id: "42", sandboxId: "6f1c1a52-8d0e-4a51-9d1b-0c7d2b7f3a10", type, reason, message: `${reason} happened`, occurredAt: new Date(0), recordedAt: new Date(0), data }) as TimelineEvent;

describe("a timeline event in the server log", () => {
  it("names the disrupted pod and node, at warn", () => {
    const disruption = { reason: "NodeDrained", message: "drained", at: "2026-12-05T12:00:00Z", podUid: "pod-1", nodeName: "worker-2", checkpointTaken: true };
    expect(timelineLogEntry(anEvent("Disruption", "Disrupted", { phase: "Disrupted", podUid: "pod-1", nodeName: "worker-2", disruption }), about)).toEqual({
      level: "warn",
      entry: { eventId: "42", sandboxId: "6f1c1a52-8d0e-4a51-9d1b-0c7d2b7f3a10", namespace: "team-a", sandbox: "agent-1", type: "Disruption", reason: "Disrupted", message: "Disrupted happened", podUid: "pod-1", node: "worker-2", disruptionReason: "NodeDrained" },
    });
  });

  it("tells a recovery's replacement and how long it took, at info", () => {
    const recovery = { reason: "Recovered", message: "back", startedAt: "x", recoveredAt: "y", durationMs: 41_300, replacementPodUid: "pod-2", replacementNodeName: "worker-1" };
    const { level, entry } = timelineLogEntry(anEvent("Recovery", "Recovered", { phase: "Ready", podUid: "pod-2", nodeName: "worker-1", recovery }), about);
    expect({ level, replacement: [entry.replacementPodUid, entry.replacementNode], recoveryDurationMs: entry.recoveryDurationMs }).toEqual({ level: "info", replacement: ["pod-2", "worker-1"], recoveryDurationMs: 41_300 });
  });

  it("puts a recovery that cannot be scheduled at warn", () => {
    expect(timelineLogEntry(anEvent("Recovery", "Unschedulable", { phase: "Recovering" }), about).level).toBe("warn");
  });

  it("names the node and the run of a maintenance step on no sandbox", () => {
    const { entry } = timelineLogEntry({ ...anEvent("Maintenance", "MaintenanceStarted", { node: "worker-2", runId: "run-1" }), sandboxId: null }, undefined);
    expect([entry.node, entry.runId, "namespace" in entry]).toEqual(["worker-2", "run-1", false]);
  });
});
