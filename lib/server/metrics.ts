import { disruptionReasonSchema } from "../disruption/disruption-details.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { renderBerthMetrics } from "../metrics/berth-metrics.ts";
import type { Runtime } from "./runtime.ts";

// GET /metrics: the live sandboxes' phases from memory, and the whole recorded history of
// disruptions and checkpoints from the store (counters must never go down between scrapes).
// Reading the whole history each scrape is simple and fine at thousands of events; a store-side
// aggregate is the next step if it ever is not.

async function liveSandboxes(runtime: Runtime): Promise<SandboxRecord[]> {
  return runtime.live.ready ? runtime.live.all() : runtime.store.sandboxes.listAllLive();
}

export async function metricsText(runtime: Runtime): Promise<string> {
  const [sandboxes, disruptions, checkpoints, maintenanceRuns] = await Promise.all([
    liveSandboxes(runtime),
    runtime.store.timeline.disruptionHistory(),
    runtime.store.checkpoints.finishedOutcomes(),
    runtime.store.maintenance.finishedOutcomes(),
  ]);
  return renderBerthMetrics({
    sandboxes: sandboxes.map((record) => ({ phase: record.phase })),
    disruptions: disruptions.flatMap((one) => {
      const reason = disruptionReasonSchema.safeParse(one.reason);
      return reason.success ? [{ reason: reason.data, durationMs: one.durationMs }] : [];
    }),
    checkpoints,
    maintenanceRuns,
    leadership: { replica: runtime.replica, leader: runtime.leadership.state().holder },
  });
}
