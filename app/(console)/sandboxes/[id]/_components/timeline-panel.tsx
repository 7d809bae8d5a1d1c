"use client";

import { useState } from "react";
import { layoutTimeline } from "@/lib/domain/timeline-lanes.ts";
import type { DurableState } from "@/lib/domain/durable-state.ts";
import type { TimelineEvent } from "@/lib/domain/timeline.ts";
import { TimelineChart } from "./timeline-chart.tsx";
import { TimelineEventList } from "./timeline-event-list.tsx";
import { FULL_VIEW, MAX_ZOOM_STEP, panTo, visibleRange, zoomTo, type Zoom } from "./timeline-zoom.ts";
import styles from "./timeline.module.css";
import buttons from "@/app/components/buttons.module.css";

function spanText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}

/** The chart with its zoom controls (buttons, and two ranges a keyboard moves), and the event list beside it. */
export function TimelinePanel({ events, durableState, now }: { events: TimelineEvent[]; durableState: DurableState | null; now: Date }) {
  const [zoom, setZoom] = useState<Zoom>(FULL_VIEW);
  const layout = layoutTimeline({ events, now, durableState });
  const range = visibleRange(layout.start, layout.end, zoom);
  const inView = spanText(range[1].getTime() - range[0].getTime());

  return (
    <div className={styles.panel}>
      <figure className={styles.figure}>
        <div className={styles.controls} role="group" aria-label="Zoom the timeline">
          <button type="button" className={`${buttons.secondary} ${buttons.compact}`} onClick={() => setZoom(zoomTo(zoom, zoom.step + 1))} disabled={zoom.step >= MAX_ZOOM_STEP}>
            Zoom in
          </button>
          <button type="button" className={`${buttons.secondary} ${buttons.compact}`} onClick={() => setZoom(zoomTo(zoom, zoom.step - 1))} disabled={zoom.step <= 0}>
            Zoom out
          </button>
          <button type="button" className={`${buttons.secondary} ${buttons.compact}`} onClick={() => setZoom(FULL_VIEW)} disabled={zoom.step === 0 && zoom.position === 1}>
            Reset zoom
          </button>
          <label className={styles.range}>
            <span>Zoom</span>
            <input type="range" min={0} max={MAX_ZOOM_STEP} step={1} value={zoom.step} aria-valuetext={`${2 ** zoom.step}×, ${inView} in view`} onChange={(event) => setZoom(zoomTo(zoom, Number(event.target.value)))} />
          </label>
          <label className={styles.range}>
            <span>Position</span>
            <input
              type="range"
              min={0}
              max={100}
              step={1}
              value={Math.round(zoom.position * 100)}
              aria-valuetext={zoom.position === 1 ? "newest end" : zoom.position === 0 ? "oldest end" : `${Math.round(zoom.position * 100)}% towards the newest`}
              onChange={(event) => setZoom(panTo(zoom, Number(event.target.value) / 100))}
            />
          </label>
          <span className={styles.inView} aria-live="polite">
            {inView} in view
          </span>
        </div>
        <TimelineChart layout={layout} range={range} />
        <figcaption className={styles.caption}>
          One lane per pod instance, labelled with its node (lighter while starting); shaded: from a disruption to its Ready replacement, with the durable-state verdict;
          ◆ checkpoint, ▲ protection change, ● maintenance. Every event is listed beside it.
        </figcaption>
      </figure>
      <TimelineEventList events={events} />
    </div>
  );
}
