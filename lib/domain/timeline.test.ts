import { describe, expect, it } from "vitest";
import { newTimelineEventSchema } from "./timeline.ts";

// Timeline events as every reader gets them: the data of each type typed, each fact on its own.

const anEvent = (type: string, data: Record<string, unknown>) => ({ sandboxId: null, type, reason: "Something", message: "", occurredAt: new Date("2026-12-04T12:00:00.000Z"), data });
const DISRUPTION = { reason: "NodeDrained", message: "drained", at: "2026-12-04T11:59:00.000Z", podUid: "pod-1", nodeName: "worker-1", checkpointTaken: false };

describe("a timeline event's data", () => {
  it("is typed by the event's type", () => {
    const event = newTimelineEventSchema.parse(anEvent("Disruption", { disruption: DISRUPTION }));
    expect(event.type === "Disruption" && event.data.disruption?.nodeName).toBe("worker-1");
  });

  it("reads a fact that no longer fits as absent, and keeps the event", () => {
    const event = newTimelineEventSchema.parse(anEvent("Disruption", { disruption: { reason: "Meteor" }, podUid: "pod-1" }));
    expect(event.data).toEqual({ disruption: null, podUid: "pod-1" });
  });

  it("keeps what no reader types, as it was written", () => {
    expect(newTimelineEventSchema.parse(anEvent("Lifecycle", { claimsDeleted: ["workspace-box"] })).data).toEqual({ claimsDeleted: ["workspace-box"] });
  });

  it("is refused for a type Berth does not know", () => {
    expect(newTimelineEventSchema.safeParse(anEvent("Weather", {})).success).toBe(false);
  });
});
