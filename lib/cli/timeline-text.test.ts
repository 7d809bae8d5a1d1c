import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TimelineLayout } from "../domain/timeline-lanes.ts";
import { expectGolden } from "../testing/golden-files.ts";
import { drawLanes } from "./timeline-text.ts";

// `berth timeline`'s lanes, held to a golden file: a sandbox whose pod on worker-2 was drained,
// checkpointed first, and replaced on worker-1 (lib/cli/testdata; UPDATE_GOLDEN=1 rewrites it).

const start = new Date("2026-12-05T12:00:00Z");
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

const drained: TimelineLayout = {
  start: at(0),
  end: at(600),
  ended: false,
  lanes: [
    { podUid: "3f2a9c1e-7b44-4c1d-9e0a-1d2c3b4a5f60", nodeName: "worker-2", start: at(0), readyAt: at(30), end: at(300) },
    { podUid: "8c7d6e5f-1a2b-4c3d-8e9f-0a1b2c3d4e5f", nodeName: "worker-1", start: at(300), readyAt: at(341), end: null },
  ],
  spans: [
    { key: "1", reason: "NodeDrained", message: "worker-2 drained", start: at(290), end: at(341), outcome: "recovered", fromPodUid: "3f2a9c1e-7b44-4c1d-9e0a-1d2c3b4a5f60", fromNodeName: "worker-2", toPodUid: "8c7d6e5f-1a2b-4c3d-8e9f-0a1b2c3d4e5f", toNodeName: "worker-1", durationMs: 41_300, verdict: null },
  ],
  markers: [{ kind: "checkpoint", eventId: "7", at: at(280), reason: "CheckpointSucceeded", message: "checkpointed", laneIndex: 0 }],
};

describe("the timeline's lanes as text", () => {
  it("draws a lane per pod on its node, the disruption under them, and says how it ended", () => {
    expectGolden(path.join(import.meta.dirname, "testdata"), "timeline-lanes", drawLanes(drained, 60), "txt");
  });

  it("draws a recovery still under way as running to the right edge", () => {
    const open = { ...drained, spans: [{ ...drained.spans[0]!, end: null, outcome: "recovering" as const }] };
    expect(drawLanes(open, 40).split("\n").find((line) => line.startsWith("NodeDrained"))).toMatch(/━→│$/);
  });

  it("says so when no pod has run yet", () => {
    expect(drawLanes({ ...drained, lanes: [], spans: [], markers: [] })).toBe("No pod has run yet.\n");
  });
});
