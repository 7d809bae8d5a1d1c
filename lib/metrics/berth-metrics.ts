import { z } from "zod";
import { CHECKPOINT_RESULTS, checkpointResultSchema } from "../domain/checkpoint.ts";
import { MAINTENANCE_RUN_STATES } from "../domain/maintenance.ts";
import { SANDBOX_PHASES, sandboxPhaseSchema } from "../domain/sandbox-status.ts";
import { DISRUPTION_REASONS, disruptionReasonSchema } from "../disruption/disruption-details.ts";
import { histogramOf, renderPrometheusText, type HistogramSeries, type MetricFamily, type Sample } from "./prometheus-text.ts";

// What `GET /metrics` says about Berth, computed from a snapshot of plain facts: no I/O here.
// Every phase, reason and result Berth knows is written even at zero, so a dashboard sees the
// same series from the first scrape on. Durations are kept in milliseconds by Berth and exposed
// in seconds, Prometheus's base unit.
//
// The counters (`_total`) must never go down between scrapes, so their inputs are the whole
// recorded history — every disruption, finished checkpoint and maintenance run in the store,
// deleted sandboxes included — not what the live sandboxes currently show.

/** Recoveries take from seconds (a pod recreated on the same node) to an hour (a node brought back). */
export const RECOVERY_DURATION_BUCKETS_SECONDS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600] as const;

/** Checkpoint hooks take from a tenth of a second (a flush) to their five-minute limit. */
export const CHECKPOINT_DURATION_BUCKETS_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300] as const;

/** The checkpoint results that are final; a Running checkpoint is counted once it ends. */
export const FINISHED_CHECKPOINT_RESULTS = CHECKPOINT_RESULTS.filter((result) => result !== "Running");

/** How a maintenance run can end: every one is written, even at zero. */
export const MAINTENANCE_RUN_OUTCOMES = MAINTENANCE_RUN_STATES.filter((state) => state !== "Running");

const durationMs = z.number().nonnegative().nullable();

export const berthMetricsInputSchema = z.object({
  /** Every sandbox Berth knows now, with its derived phase. */
  sandboxes: z.array(z.object({ phase: sandboxPhaseSchema })),
  /** Every disruption recorded; `durationMs` is its recovery's duration once it recovered, null before (or if it never did). */
  disruptions: z.array(z.object({ reason: disruptionReasonSchema, durationMs })),
  /** Every checkpoint recorded; Running ones are left out until they finish. `durationMs` from start to result. */
  checkpoints: z.array(z.object({ result: checkpointResultSchema, durationMs })),
  /** Every maintenance run that finished, with how it ended. */
  maintenanceRuns: z.array(z.object({ outcome: z.string().regex(/^[A-Z][A-Za-z0-9]*$/, "outcome must be CamelCase, such as Succeeded") })),
  /** This replica, and the one that writes (the elected leader) as last seen; null while none is known. */
  leadership: z.object({ replica: z.string(), leader: z.string().nullable() }),
});
export type BerthMetricsInput = z.input<typeof berthMetricsInputSchema>;

/** Berth's metric families for this snapshot; the input is checked against `berthMetricsInputSchema`. */
export function berthMetricFamilies(input: BerthMetricsInput): MetricFamily[] {
  const { sandboxes, disruptions, checkpoints, maintenanceRuns, leadership } = berthMetricsInputSchema.parse(input);
  const finished = checkpoints.filter((checkpoint) => checkpoint.result !== "Running");
  return [
    {
      type: "gauge",
      name: "berth_sandboxes",
      help: "Sandboxes Berth knows now, by the phase it derives for each.",
      samples: countBy("phase", SANDBOX_PHASES, sandboxes.map((sandbox) => sandbox.phase)),
    },
    {
      type: "counter",
      name: "berth_disruptions_total",
      help: "Disruptions recorded: times a sandbox's pod went away without the user asking, by reason.",
      samples: countBy("reason", DISRUPTION_REASONS, disruptions.map((disruption) => disruption.reason)),
    },
    {
      type: "histogram",
      name: "berth_recovery_duration_seconds",
      help: "Seconds from a disruption to a Ready replacement pod, for disruptions that recovered.",
      buckets: RECOVERY_DURATION_BUCKETS_SECONDS,
      series: [durationHistogram(RECOVERY_DURATION_BUCKETS_SECONDS, disruptions)],
    },
    {
      type: "counter",
      name: "berth_checkpoints_total",
      help: "Checkpoints that finished, by result.",
      samples: countBy("result", FINISHED_CHECKPOINT_RESULTS, finished.map((checkpoint) => checkpoint.result)),
    },
    {
      type: "histogram",
      name: "berth_checkpoint_duration_seconds",
      help: "Seconds a checkpoint took from start to result, for checkpoints that finished.",
      buckets: CHECKPOINT_DURATION_BUCKETS_SECONDS,
      series: [durationHistogram(CHECKPOINT_DURATION_BUCKETS_SECONDS, finished)],
    },
    {
      type: "counter",
      name: "berth_maintenance_runs_total",
      help: "Node maintenance runs (planned drains) that finished, by outcome.",
      samples: countBy("outcome", MAINTENANCE_RUN_OUTCOMES, maintenanceRuns.map((run) => run.outcome)),
    },
    {
      type: "gauge",
      name: "berth_leader",
      help: "1 when this replica is the one that writes (the elected leader), else 0; the leader label names the leader as last seen.",
      samples: [{ labels: { replica: leadership.replica, leader: leadership.leader ?? "" }, value: leadership.leader === leadership.replica ? 1 : 0 }],
    },
  ];
}

/** The body of `GET /metrics`; serve it with `PROMETHEUS_CONTENT_TYPE`. */
export function renderBerthMetrics(input: BerthMetricsInput): string {
  return renderPrometheusText(berthMetricFamilies(input));
}

/** One sample per known value (zero when absent) plus one per other value seen. */
function countBy(label: string, known: readonly string[], values: readonly string[]): Sample[] {
  const counts = new Map<string, number>(known.map((value) => [value, 0]));
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, count]) => ({ labels: { [label]: value }, value: count }));
}

/** A histogram in seconds of the durations that are known; the sum is added in whole milliseconds first, so it stays exact. */
function durationHistogram(buckets: readonly number[], records: readonly { durationMs: number | null }[]): HistogramSeries {
  const known = records.flatMap((record) => (record.durationMs === null ? [] : [record.durationMs]));
  const totalMs = known.reduce((total, ms) => total + ms, 0);
  return { ...histogramOf(buckets, known.map((ms) => ms / 1000)), sum: totalMs / 1000 };
}
