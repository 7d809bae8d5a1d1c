import { describeSpan, type TimelineLayout } from "../domain/timeline-lanes.ts";
import type { TimelineEvent } from "../domain/timeline.ts";
import { table } from "./printers.ts";

// `berth timeline`: the sandbox's history as text — a lane per pod instance (labelled with its
// node) drawn along a time axis, the disruption-to-recovery spans under them, then the events
// themselves. The layout is the same one the browser's chart draws (lib/domain/timeline-lanes.ts).

export const LANE_LEGEND = "░ starting  █ Ready  ◆ checkpoint, protection or maintenance  ━ disrupted until recovered (→ still open)";

const clock = (at: Date) => at.toISOString().slice(11, 19);

/** `width` columns of lane between the layout's start and end. */
export function drawLanes(layout: TimelineLayout, width = 60): string {
  const span = Math.max(1, layout.end.getTime() - layout.start.getTime());
  const column = (at: Date) => Math.min(width - 1, Math.max(0, Math.floor(((at.getTime() - layout.start.getTime()) / span) * (width - 1))));
  const labels = layout.lanes.map((lane) => `${lane.nodeName ?? "unscheduled"} ${lane.podUid.slice(0, 8)}`);
  const labelWidth = Math.max(11, ...labels.map((label) => label.length));
  const row = (label: string, cells: string[]) => `${label.padEnd(labelWidth)} │${cells.join("")}│`;
  const axis = `${" ".repeat(labelWidth)}  ${clock(layout.start)}${" ".repeat(Math.max(1, width - 16))}${clock(layout.end)}`;
  const lanes = layout.lanes.map((lane, index) => {
    const cells = Array.from({ length: width }, () => " ");
    const from = column(lane.start);
    const ready = lane.readyAt ? column(lane.readyAt) : null;
    const to = lane.end ? column(lane.end) : width - 1;
    for (let at = from; at <= to; at++) cells[at] = ready !== null && at >= ready ? "█" : "░";
    for (const marker of layout.markers.filter((one) => one.laneIndex === index)) cells[column(marker.at)] = "◆";
    return row(labels[index]!, cells);
  });
  const spans = layout.spans.map((one) => {
    const cells = Array.from({ length: width }, () => " ");
    const from = column(one.start);
    const to = one.end ? column(one.end) : width - 1;
    for (let at = from; at <= to; at++) cells[at] = "━";
    if (!one.end) cells[width - 1] = "→";
    return row(one.reason, cells);
  });
  if (lanes.length === 0) return `No pod has run yet.\n`;
  return [axis, ...lanes, ...spans, "", LANE_LEGEND, ...layout.spans.map((one) => `  ${describeSpan(one)}`)].join("\n") + "\n";
}

/** One line per event, oldest first, with its time. */
export function eventLines(events: readonly TimelineEvent[], header = true): string {
  if (events.length === 0) return "";
  return `${table(header ? ["TIME", "TYPE", "REASON", "MESSAGE"] : null, events.map((event) => [event.occurredAt.toISOString(), event.type, event.reason, event.message]))}\n`;
}
