import { describe, expect, it } from "vitest";
import { CHECKPOINT_RESULTS } from "../domain/checkpoint.ts";
import { SANDBOX_PHASES, type SandboxPhase } from "../domain/sandbox-status.ts";
import { DISRUPTION_REASONS, type DisruptionReason } from "../disruption/disruption-details.ts";
import { MAINTENANCE_RUN_OUTCOMES, renderBerthMetrics, type BerthMetricsInput } from "./berth-metrics.ts";

type CheckpointResult = (typeof CHECKPOINT_RESULTS)[number];

const aSnapshot = (overrides: Partial<BerthMetricsInput> = {}): BerthMetricsInput => ({ sandboxes: [], disruptions: [], checkpoints: [], maintenanceRuns: [], leadership: { replica: "berth-0/a1b2c3", leader: "berth-0/a1b2c3" }, ...overrides });
const sandboxesIn = (...phases: SandboxPhase[]) => phases.map((phase) => ({ phase }));
/** A disruption; give `recoveredAfterMs` for one that recovered. */
const aDisruption = (reason: DisruptionReason = "PodEvicted", recoveredAfterMs: number | null = null) => ({ reason, durationMs: recoveredAfterMs });
const aCheckpoint = (result: CheckpointResult = "Succeeded", durationMs: number | null = 1000) => ({ result, durationMs });

/** The value written for one series, such as `berth_sandboxes{phase="Ready"}`, or undefined when there is no such line. */
function valueOf(text: string, series: string): string | undefined {
  return text
    .split("\n")
    .find((line) => line.startsWith(`${series} `))
    ?.slice(series.length + 1);
}

/** Every sample line of one family (or of a histogram's `_bucket`, `_sum`, `_count`). */
const linesOf = (text: string, name: string) => text.split("\n").filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));

describe("Berth's metrics with nothing to count", () => {
  const text = renderBerthMetrics(aSnapshot());

  it("writes every sandbox phase at zero", () => {
    expect(SANDBOX_PHASES.map((phase) => valueOf(text, `berth_sandboxes{phase="${phase}"}`))).toEqual(SANDBOX_PHASES.map(() => "0"));
  });

  it("writes every disruption reason at zero", () => {
    expect(DISRUPTION_REASONS.map((reason) => valueOf(text, `berth_disruptions_total{reason="${reason}"}`))).toEqual(DISRUPTION_REASONS.map(() => "0"));
  });

  it("writes every finished checkpoint result at zero", () => {
    expect(linesOf(text, "berth_checkpoints_total")).toEqual(['berth_checkpoints_total{result="Failed"} 0', 'berth_checkpoints_total{result="Succeeded"} 0', 'berth_checkpoints_total{result="TimedOut"} 0']);
  });

  it("writes the known maintenance outcomes at zero", () => {
    expect(MAINTENANCE_RUN_OUTCOMES.map((outcome) => valueOf(text, `berth_maintenance_runs_total{outcome="${outcome}"}`))).toEqual(MAINTENANCE_RUN_OUTCOMES.map(() => "0"));
  });

  it("writes empty histograms with their +Inf bucket, sum and count", () => {
    expect([valueOf(text, 'berth_recovery_duration_seconds_bucket{le="+Inf"}'), valueOf(text, "berth_recovery_duration_seconds_sum"), valueOf(text, "berth_recovery_duration_seconds_count")]).toEqual(["0", "0", "0"]);
  });
});

describe("Berth's metrics, counted", () => {
  it("counts sandboxes by phase", () => {
    const text = renderBerthMetrics(aSnapshot({ sandboxes: sandboxesIn("Ready", "Ready", "Disrupted") }));
    expect([valueOf(text, 'berth_sandboxes{phase="Ready"}'), valueOf(text, 'berth_sandboxes{phase="Disrupted"}')]).toEqual(["2", "1"]);
  });

  it("counts disruptions by reason", () => {
    const text = renderBerthMetrics(aSnapshot({ disruptions: [aDisruption("NodeDrained"), aDisruption("NodeDrained", 2000), aDisruption("NodeLost")] }));
    expect([valueOf(text, 'berth_disruptions_total{reason="NodeDrained"}'), valueOf(text, 'berth_disruptions_total{reason="NodeLost"}')]).toEqual(["2", "1"]);
  });

  it("counts checkpoints by result", () => {
    const text = renderBerthMetrics(aSnapshot({ checkpoints: [aCheckpoint("Succeeded"), aCheckpoint("Succeeded"), aCheckpoint("TimedOut", 300_000)] }));
    expect([valueOf(text, 'berth_checkpoints_total{result="Succeeded"}'), valueOf(text, 'berth_checkpoints_total{result="TimedOut"}')]).toEqual(["2", "1"]);
  });

  it("leaves a running checkpoint out until it finishes", () => {
    const text = renderBerthMetrics(aSnapshot({ checkpoints: [aCheckpoint("Running", null)] }));
    expect(text).not.toContain('result="Running"');
  });

  it("counts maintenance runs by outcome, an outcome it does not know included", () => {
    const text = renderBerthMetrics(aSnapshot({ maintenanceRuns: [{ outcome: "Succeeded" }, { outcome: "Blocked" }] }));
    expect([valueOf(text, 'berth_maintenance_runs_total{outcome="Succeeded"}'), valueOf(text, 'berth_maintenance_runs_total{outcome="Blocked"}')]).toEqual(["1", "1"]);
  });

  it("refuses a phase Berth does not have", () => {
    expect(() => renderBerthMetrics(aSnapshot({ sandboxes: [{ phase: "Running" as SandboxPhase }] }))).toThrow(/phase/);
  });
});

describe("the recovery duration histogram", () => {
  it("buckets recovery durations in seconds from milliseconds (bounds inclusive)", () => {
    const text = renderBerthMetrics(aSnapshot({ disruptions: [aDisruption("PodEvicted", 5000), aDisruption("PodEvicted", 5001), aDisruption("NodeLost", 4_000_000)] }));
    expect(linesOf(text, "berth_recovery_duration_seconds_bucket")).toEqual([
      'berth_recovery_duration_seconds_bucket{le="1"} 0',
      'berth_recovery_duration_seconds_bucket{le="5"} 1',
      'berth_recovery_duration_seconds_bucket{le="15"} 2',
      'berth_recovery_duration_seconds_bucket{le="30"} 2',
      'berth_recovery_duration_seconds_bucket{le="60"} 2',
      'berth_recovery_duration_seconds_bucket{le="120"} 2',
      'berth_recovery_duration_seconds_bucket{le="300"} 2',
      'berth_recovery_duration_seconds_bucket{le="600"} 2',
      'berth_recovery_duration_seconds_bucket{le="1800"} 2',
      'berth_recovery_duration_seconds_bucket{le="3600"} 2',
      'berth_recovery_duration_seconds_bucket{le="+Inf"} 3',
    ]);
  });

  it("sums recovery durations in seconds", () => {
    const text = renderBerthMetrics(aSnapshot({ disruptions: [aDisruption("PodEvicted", 100), aDisruption("PodEvicted", 200)] }));
    expect(valueOf(text, "berth_recovery_duration_seconds_sum")).toBe("0.3");
  });

  it("counts an unrecovered disruption in the counter", () => {
    const text = renderBerthMetrics(aSnapshot({ disruptions: [aDisruption("NodeLost", null)] }));
    expect(valueOf(text, 'berth_disruptions_total{reason="NodeLost"}')).toBe("1");
  });

  it("leaves an unrecovered disruption out of the histogram", () => {
    const text = renderBerthMetrics(aSnapshot({ disruptions: [aDisruption("NodeLost", null), aDisruption("PodEvicted", 2000)] }));
    expect([valueOf(text, "berth_recovery_duration_seconds_count"), valueOf(text, "berth_recovery_duration_seconds_sum")]).toEqual(["1", "2"]);
  });
});

describe("the checkpoint duration histogram", () => {
  it("buckets finished checkpoints' durations in seconds", () => {
    const text = renderBerthMetrics(aSnapshot({ checkpoints: [aCheckpoint("Succeeded", 100), aCheckpoint("Failed", 700)] }));
    expect([valueOf(text, 'berth_checkpoint_duration_seconds_bucket{le="0.1"}'), valueOf(text, 'berth_checkpoint_duration_seconds_bucket{le="1"}')]).toEqual(["1", "2"]);
  });

  it("leaves out checkpoints with no duration", () => {
    const text = renderBerthMetrics(aSnapshot({ checkpoints: [aCheckpoint("Running", null), aCheckpoint("Failed", null), aCheckpoint("Succeeded", 2000)] }));
    expect(valueOf(text, "berth_checkpoint_duration_seconds_count")).toBe("1");
  });
});

describe("the leader", () => {
  it("is this replica: 1, naming it", () => {
    expect(valueOf(renderBerthMetrics(aSnapshot({ leadership: { replica: "berth-0/a1", leader: "berth-0/a1" } })), 'berth_leader{leader="berth-0/a1",replica="berth-0/a1"}')).toBe("1");
  });

  it("is another replica: 0, naming the leader", () => {
    expect(valueOf(renderBerthMetrics(aSnapshot({ leadership: { replica: "berth-1/b2", leader: "berth-0/a1" } })), 'berth_leader{leader="berth-0/a1",replica="berth-1/b2"}')).toBe("0");
  });
});

describe("the whole exposition (golden)", () => {
  it("writes a small snapshot exactly", () => {
    const text = renderBerthMetrics(
      aSnapshot({
        sandboxes: sandboxesIn("Ready", "Ready", "Disrupted"),
        disruptions: [aDisruption("NodeDrained", 12_500), aDisruption("PodEvicted", null)],
        checkpoints: [aCheckpoint("Succeeded", 1500), aCheckpoint("Running", null)],
        maintenanceRuns: [{ outcome: "Succeeded" }],
      }),
    );
    expect(text).toBe(`# HELP berth_checkpoint_duration_seconds Seconds a checkpoint took from start to result, for checkpoints that finished.
# TYPE berth_checkpoint_duration_seconds histogram
berth_checkpoint_duration_seconds_bucket{le="0.1"} 0
berth_checkpoint_duration_seconds_bucket{le="0.25"} 0
berth_checkpoint_duration_seconds_bucket{le="0.5"} 0
berth_checkpoint_duration_seconds_bucket{le="1"} 0
berth_checkpoint_duration_seconds_bucket{le="2.5"} 1
berth_checkpoint_duration_seconds_bucket{le="5"} 1
berth_checkpoint_duration_seconds_bucket{le="10"} 1
berth_checkpoint_duration_seconds_bucket{le="30"} 1
berth_checkpoint_duration_seconds_bucket{le="60"} 1
berth_checkpoint_duration_seconds_bucket{le="120"} 1
berth_checkpoint_duration_seconds_bucket{le="300"} 1
berth_checkpoint_duration_seconds_bucket{le="+Inf"} 1
berth_checkpoint_duration_seconds_sum 1.5
berth_checkpoint_duration_seconds_count 1
# HELP berth_checkpoints_total Checkpoints that finished, by result.
# TYPE berth_checkpoints_total counter
berth_checkpoints_total{result="Failed"} 0
berth_checkpoints_total{result="Succeeded"} 1
berth_checkpoints_total{result="TimedOut"} 0
# HELP berth_disruptions_total Disruptions recorded: times a sandbox's pod went away without the user asking, by reason.
# TYPE berth_disruptions_total counter
berth_disruptions_total{reason="NodeDrained"} 1
berth_disruptions_total{reason="NodeLost"} 0
berth_disruptions_total{reason="PodDeleted"} 0
berth_disruptions_total{reason="PodEvicted"} 1
berth_disruptions_total{reason="Preempted"} 0
berth_disruptions_total{reason="ResourcePressure"} 0
# HELP berth_leader 1 when this replica is the one that writes (the elected leader), else 0; the leader label names the leader as last seen.
# TYPE berth_leader gauge
berth_leader{leader="berth-0/a1b2c3",replica="berth-0/a1b2c3"} 1
# HELP berth_maintenance_runs_total Node maintenance runs (planned drains) that finished, by outcome.
# TYPE berth_maintenance_runs_total counter
berth_maintenance_runs_total{outcome="Blocked"} 0
berth_maintenance_runs_total{outcome="Cancelled"} 0
berth_maintenance_runs_total{outcome="Failed"} 0
berth_maintenance_runs_total{outcome="Interrupted"} 0
berth_maintenance_runs_total{outcome="Succeeded"} 1
# HELP berth_recovery_duration_seconds Seconds from a disruption to a Ready replacement pod, for disruptions that recovered.
# TYPE berth_recovery_duration_seconds histogram
berth_recovery_duration_seconds_bucket{le="1"} 0
berth_recovery_duration_seconds_bucket{le="5"} 0
berth_recovery_duration_seconds_bucket{le="15"} 1
berth_recovery_duration_seconds_bucket{le="30"} 1
berth_recovery_duration_seconds_bucket{le="60"} 1
berth_recovery_duration_seconds_bucket{le="120"} 1
berth_recovery_duration_seconds_bucket{le="300"} 1
berth_recovery_duration_seconds_bucket{le="600"} 1
berth_recovery_duration_seconds_bucket{le="1800"} 1
berth_recovery_duration_seconds_bucket{le="3600"} 1
berth_recovery_duration_seconds_bucket{le="+Inf"} 1
berth_recovery_duration_seconds_sum 12.5
berth_recovery_duration_seconds_count 1
# HELP berth_sandboxes Sandboxes Berth knows now, by the phase it derives for each.
# TYPE berth_sandboxes gauge
berth_sandboxes{phase="Checkpointing"} 0
berth_sandboxes{phase="Deleted"} 0
berth_sandboxes{phase="Deleting"} 0
berth_sandboxes{phase="Disrupted"} 1
berth_sandboxes{phase="Error"} 0
berth_sandboxes{phase="Pending"} 0
berth_sandboxes{phase="Provisioning"} 0
berth_sandboxes{phase="Ready"} 2
berth_sandboxes{phase="Recovering"} 0
berth_sandboxes{phase="Starting"} 0
berth_sandboxes{phase="Stopped"} 0
berth_sandboxes{phase="Stopping"} 0
`);
  });
});
