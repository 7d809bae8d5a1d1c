import { scaleUtc } from "d3-scale";
import { useId } from "react";
import { formatTimestamp } from "@/app/components/format.ts";
import { describeSpan, describeTimeline, type MarkerKind, type TimelineLayout, type TimelineMarker } from "@/lib/domain/timeline-lanes.ts";
import styles from "./timeline.module.css";

const WIDTH = 600;
const LABEL_WIDTH = 116;
const ROW = 42;
const BAR = 14;
const TOP = 22;
const AXIS = 26;

const KIND_NAMES: Record<MarkerKind, string> = { checkpoint: "Checkpoint", protection: "Protection", maintenance: "Maintenance" };

function Marker({ marker, x, y }: { marker: TimelineMarker; x: number; y: number }) {
  const title = `${KIND_NAMES[marker.kind]} ${marker.reason} at ${formatTimestamp(marker.at)}: ${marker.message}`;
  const failed = /Failed|TimedOut|Interrupted|Blocked/.test(marker.reason);
  const shape =
    marker.kind === "checkpoint" ? (
      <rect x={-5} y={-5} width={10} height={10} transform="rotate(45)" />
    ) : marker.kind === "protection" ? (
      <path d="M0,-7 L6,5 L-6,5 Z" />
    ) : (
      <circle r={5} />
    );
  return (
    <g className={styles.marker} data-kind={marker.kind} data-failed={failed} transform={`translate(${x},${y})`}>
      <title>{title}</title>
      {shape}
    </g>
  );
}

/**
 * The swimlane chart: a lane per pod instance (labelled with its node), disruption-to-recovery
 * spans shaded across the lanes with their verdict, and markers for checkpoints, protection and
 * maintenance; time along a UTC axis (d3's scaleUtc — scaleTime's UTC form — so server and
 * browser draw the same ticks whatever their time zones). It is one image to assistive
 * technology, named by the layout's summary; the event list beside it carries every detail.
 */
export function TimelineChart({ layout, range }: { layout: TimelineLayout; range: [Date, Date] }) {
  const clipId = useId();
  const orphans = layout.markers.some((marker) => marker.laneIndex === null);
  const rows = Math.max(layout.lanes.length, 1) + (orphans ? 1 : 0);
  const height = TOP + rows * ROW + AXIS;
  const plotBottom = TOP + rows * ROW;
  const x = scaleUtc().domain(range).range([LABEL_WIDTH, WIDTH - 8]);
  const ticks = x.ticks(6);
  const tickText = x.tickFormat(6);
  const laneTop = (index: number | null) => TOP + (index === null ? layout.lanes.length : index) * ROW;
  // An open lane or span runs to the layout's end: now, or the newest event if that is later
  // (the page's clock ticks every few seconds; events arrive in between).
  const until = (end: Date | null) => x(end ?? layout.end);

  return (
    <svg className={styles.chart} viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={`Timeline: ${describeTimeline(layout)}`}>
      <defs>
        <clipPath id={clipId}>
          <rect x={LABEL_WIDTH} y={0} width={WIDTH - LABEL_WIDTH - 8} height={height} />
        </clipPath>
      </defs>

      {layout.lanes.map((lane, index) => (
        <g key={lane.podUid}>
          <rect className={styles.laneBand} x={0} y={laneTop(index)} width={WIDTH} height={ROW} />
          <text className={styles.laneLabel} x={6} y={laneTop(index) + 17}>
            {lane.nodeName ?? "not scheduled"}
          </text>
          <text className={styles.laneSub} x={6} y={laneTop(index) + 31}>
            pod {lane.podUid.slice(0, 8)}
          </text>
        </g>
      ))}
      {layout.lanes.length === 0 ? (
        <text className={styles.laneSub} x={6} y={TOP + 24}>
          No pod has run yet
        </text>
      ) : null}
      {orphans ? (
        <text className={styles.laneSub} x={6} y={laneTop(null) + 24}>
          No pod running
        </text>
      ) : null}

      <g clipPath={`url(#${clipId})`}>
        {ticks.map((tick) => (
          <line key={tick.getTime()} className={styles.grid} x1={x(tick)} x2={x(tick)} y1={TOP} y2={plotBottom} />
        ))}
        {layout.spans.map((span) => (
          <g key={span.key} className={styles.span} data-outcome={span.outcome}>
            <title>{`Disruption ${describeSpan(span)}. ${span.message}${span.verdict ? ` Durable state ${span.verdict.verdict}: ${span.verdict.why}` : ""}`}</title>
            <rect x={x(span.start)} y={TOP - 16} width={Math.max(2, until(span.end) - x(span.start))} height={plotBottom - TOP + 16} />
            <text className={styles.spanLabel} x={x(span.start) + 4} y={TOP - 5}>
              {span.reason}
              {span.verdict ? ` · state ${span.verdict.verdict}` : span.outcome === "recovering" ? " · recovering" : ""}
            </text>
          </g>
        ))}
        {layout.lanes.map((lane, index) => {
          const y = laneTop(index) + (ROW - BAR) / 2;
          const ready = lane.readyAt ?? null;
          return (
            <g key={lane.podUid}>
              <title>{`Pod ${lane.podUid} on ${lane.nodeName ?? "no node yet"}: from ${formatTimestamp(lane.start)}${ready ? `, Ready ${formatTimestamp(ready)}` : ""}, ${lane.end ? `until ${formatTimestamp(lane.end)}` : "still running"}`}</title>
              <rect className={styles.starting} x={x(lane.start)} y={y} width={Math.max(2, (ready ? x(ready) : until(lane.end)) - x(lane.start))} height={BAR} rx={3} />
              {ready ? <rect className={styles.ready} x={x(ready)} y={y} width={Math.max(2, until(lane.end) - x(ready))} height={BAR} rx={3} /> : null}
            </g>
          );
        })}
        {layout.markers.map((marker) => (
          <Marker key={marker.eventId} marker={marker} x={x(marker.at)} y={laneTop(marker.laneIndex) + ROW / 2} />
        ))}
        {!layout.ended ? <line className={styles.now} x1={x(layout.end)} x2={x(layout.end)} y1={TOP - 16} y2={plotBottom} /> : null}
      </g>

      <line className={styles.axis} x1={LABEL_WIDTH} x2={WIDTH - 8} y1={plotBottom} y2={plotBottom} />
      {ticks.map((tick) => (
        <text key={tick.getTime()} className={styles.tick} x={x(tick)} y={plotBottom + 16} textAnchor="middle">
          {tickText(tick)}
        </text>
      ))}
      <text className={styles.tick} x={6} y={plotBottom + 16}>
        time (UTC)
      </text>
    </svg>
  );
}
