import type { Health, HealthQuestion, PublicHealth } from "../domain/health.ts";
import { findingLines } from "../domain/agent-sandbox-install.ts";
import { discoverSandboxApi } from "../kube/cluster-connection.ts";
import type { Runtime } from "./runtime.ts";

const VERSION = process.env.npm_package_version ?? "0.1.0";

/**
 * How old a finished check may be and still answer a probe at once. Past this, a probe waits for
 * a fresh check: a store or cluster that stopped answering then shows as probes that time out.
 */
export const STALE_HEALTH_MS = 10_000;

const checking = new WeakMap<Runtime, { at: number; health: Promise<Health> }>();
const finished = new WeakMap<Runtime, { at: number; health: Health }>();

/**
 * Probes the store and the cluster. `maxAgeMs` lets a caller that renders on every page view
 * (the header's badges) reuse a recent answer instead of asking the cluster each time.
 */
export function checkHealth(runtime: Runtime, { maxAgeMs = 0 } = {}): Promise<Health> {
  const cached = checking.get(runtime);
  if (cached && Date.now() - cached.at <= maxAgeMs) return cached.health;
  const at = Date.now();
  const health = probe(runtime);
  checking.set(runtime, { at, health });
  void health.then((result) => {
    if ((finished.get(runtime)?.at ?? -Infinity) < at) finished.set(runtime, { at, health: result });
  });
  return health;
}

/**
 * A finished check, without waiting for one: the last if it is younger than STALE_HEALTH_MS
 * (starting a new one when it is older than `maxAgeMs`), else null, and the caller waits for
 * checkHealth. A probe under load is answered from memory instead of queueing a store query and
 * a cluster request behind everyone else's.
 */
export function recentHealth(runtime: Runtime, { maxAgeMs, staleAfterMs = STALE_HEALTH_MS }: { maxAgeMs: number; staleAfterMs?: number }): Health | null {
  const last = finished.get(runtime);
  const age = last ? Date.now() - last.at : Infinity;
  if (age > maxAgeMs) void checkHealth(runtime, { maxAgeMs });
  return last && age <= staleAfterMs ? last.health : null;
}

/**
 * What a health path answers: the whole report to a signed-in person, the status alone to anyone
 * else; 503 while failing (the report), while not fully serving (readiness), never (liveness).
 */
export function healthAnswer(health: Health, signedIn: boolean, question: HealthQuestion = "report"): { status: 200 | 503; body: Health | PublicHealth } {
  // Ready while the store answers and the cluster serves Sandboxes, even degraded (a half-migrated install still works).
  const ready = health.status !== "failing" && health.cluster.sandboxApiVersion !== null;
  const serves = question === "live" || (question === "ready" ? ready : health.status !== "failing");
  return { status: serves ? 200 : 503, body: signedIn ? health : { status: health.status } };
}

/**
 * A health path's handler: the status for anyone (probes); what Berth is connected to, and where,
 * only for a signed-in person. A probe without credentials is usually answered before it gets
 * here, with the same answer (health-probe.ts).
 */
export function answerHealth(question: HealthQuestion) {
  return async ({ runtime, caller }: { runtime: Runtime; caller: unknown }): Promise<Response> => {
    // Probes that come together share one check, at most a second old: a burst of probes (or a
    // busy event loop) does not multiply the questions to the store and the cluster.
    const health = recentHealth(runtime, { maxAgeMs: 1_000 }) ?? (await checkHealth(runtime, { maxAgeMs: 1_000 }));
    const answer = healthAnswer(health, caller !== null, question);
    return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
  };
}

async function probe(runtime: Runtime): Promise<Health> {
  let store: Health["store"];
  try {
    await runtime.store.ping();
    store = { kind: runtime.store.kind, ok: true, message: "The store answers queries." };
  } catch (error) {
    store = { kind: runtime.store.kind, ok: false, message: `The store does not answer: ${(error as Error).message}` };
  }
  const { connection } = runtime.cluster;
  const discovery = await discoverSandboxApi(connection);
  const warnings = discovery.ok ? findingLines(discovery.install, "warning") : [];
  const cluster: Health["cluster"] = {
    mode: connection.mode,
    server: connection.server,
    sandboxApiVersion: discovery.ok ? discovery.version : null,
    agentSandbox: discovery.ok ? discovery.install : null,
    connected: discovery.ok || discovery.reason === "not-installed",
    message: discovery.ok
      ? [
          `Connected; the cluster serves agents.x-k8s.io/${discovery.version} Sandboxes.`,
          ...findingLines(discovery.install),
          ...(connection.mode === "embedded" ? ["This is Berth's embedded simulated cluster, a demo and test double."] : []),
        ].join(" ")
      : discovery.message,
  };
  // A half-migrated install still serves Sandboxes: Berth keeps serving, and says it is degraded.
  const status = !store.ok ? "failing" : discovery.ok && warnings.length === 0 ? "ok" : "degraded";
  const leadership = { replica: runtime.replica, leader: runtime.leadership.state().holder };
  return { status, version: VERSION, startedAt: runtime.startedAt.toISOString(), cluster, store, leadership };
}
