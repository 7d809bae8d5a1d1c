import { describe, expect, it } from "vitest";
import { FULL_VIEW, panTo, visibleRange, zoomTo } from "./timeline-zoom.ts";

const start = new Date("2026-11-30T12:00:00Z");
const end = new Date("2026-11-30T12:08:00Z");
const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);

describe("the timeline's visible range", () => {
  it.each([
    { story: "shows everything unzoomed", zoom: FULL_VIEW, range: [at(0), at(8)] },
    { story: "shows the newest half one step in", zoom: zoomTo(FULL_VIEW, 1), range: [at(4), at(8)] },
    { story: "shows the oldest quarter two steps in, panned to the start", zoom: panTo(zoomTo(FULL_VIEW, 2), 0), range: [at(0), at(2)] },
    { story: "stays in the middle when panned halfway", zoom: panTo(zoomTo(FULL_VIEW, 1), 0.5), range: [at(2), at(6)] },
  ])("$story", ({ zoom, range }) => {
    expect(visibleRange(start, end, zoom)).toEqual(range);
  });

  it("keeps the zoom within its steps", () => {
    expect([zoomTo(FULL_VIEW, -1).step, zoomTo(FULL_VIEW, 99).step]).toEqual([0, 6]);
  });

  it("gives a timeline of no length a minute", () => {
    expect(visibleRange(start, start, FULL_VIEW)).toEqual([at(0), at(1)]);
  });
});
