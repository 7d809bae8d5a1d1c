import type { HealthQuestion } from "../domain/health.ts";
import { endpointRoute } from "./endpoint-route.ts";
import { checkHealth, healthAnswer, recentHealth } from "./health.ts";

/**
 * A health path's route: the status for anyone (probes); what Berth is connected to, and where,
 * only for a signed-in person. A probe without credentials is usually answered before it gets
 * here, with the same answer (health-probe.ts).
 */
export function healthRoute(id: "health" | "readiness" | "liveness", question: HealthQuestion) {
  return endpointRoute(id, async ({ runtime, caller }) => {
    // Probes that come together share one check, at most a second old: a burst of probes (or a
    // busy event loop) does not multiply the questions to the store and the cluster.
    const health = recentHealth(runtime, { maxAgeMs: 1_000 }) ?? (await checkHealth(runtime, { maxAgeMs: 1_000 }));
    const answer = healthAnswer(health, caller !== null, question);
    return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
  });
}
