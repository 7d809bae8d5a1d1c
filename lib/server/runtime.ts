// The composition root: the one place that reads the configuration and opens the store, once
// per server process. Next.js may load this module more than once (instrumentation, route
// bundles, dev reloads), so the runtime lives on globalThis: a second PGlite instance on the
// same directory in the same process would corrupt it as surely as a second process.
import { loadServerConfigFromProcess, type ServerConfig } from "../config/index.ts";
import { followStoreTimeline } from "../events/event-bus.ts";
import { openStore, type Store } from "../store/index.ts";
import { openCluster, type RuntimeCluster } from "./cluster.ts";
import { LiveSandboxes } from "../sandboxes/live-sandboxes.ts";
import { operationsInFlightOn, type OperationsInFlight } from "../sandboxes/operations-in-flight.ts";
import { startIdentity, type IdentityRuntime } from "./identity.ts";
import { startReconciler, type RunningReconciler } from "./reconciler.ts";
import { RateLimits } from "./rate-limits.ts";
import { electedLeadership, soleWriter, type Leadership } from "./leadership.ts";
import { replicaName } from "./replica-name.ts";
import { logOf } from "../platform/logger.ts";
import { readKubeletSummary } from "../kube/node-stats.ts";
import { VolumeUsageSampler } from "../sandboxes/volume-usage.ts";

export interface Runtime {
  config: ServerConfig;
  /** This process among Berth's replicas: its host (pod) name and a suffix of this start's own. */
  replica: string;
  store: Store;
  cluster: RuntimeCluster;
  /** Who is asking and what Kubernetes lets them do: sign-in, sessions, cached access reviews. */
  identity: IdentityRuntime;
  /** Creates and deletes running in any replica; the reconciler leaves them alone. */
  inFlight: OperationsInFlight;
  /** Checkpoints running in any replica; the sandbox shows Checkpointing and refuses exec. */
  checkpointing: OperationsInFlight;
  /** The live sandboxes in memory, kept by the reconciler and the lifecycle actions. */
  live: LiveSandboxes;
  /** Whether this replica is the one that writes derived state and acts on its own. */
  leadership: Leadership;
  reconciler: RunningReconciler;
  /** Publishes every event the store holds, whichever replica stored it, to this process's streams. */
  liveTimeline: { stop(): void };
  /** Each person's request rates and open event streams, in this process. */
  rateLimits: RateLimits;
  /** How full the mounted claims are, from the kubelets, asked per node and kept a while. */
  volumeUsage: VolumeUsageSampler;
  startedAt: Date;
  /** How long configuration and store took to become ready at start. */
  startupMs: number;
}

const RUNTIME = Symbol.for("berth.runtime");
type RuntimeHolder = { [RUNTIME]?: Promise<Runtime> };
const holder = globalThis as RuntimeHolder;

export class BuildTimeAccessError extends Error {
  constructor() {
    super("The Berth runtime was requested while Next.js was building. Pages that read the store must be dynamic.");
    this.name = "BuildTimeAccessError";
  }
}

async function start(): Promise<Runtime> {
  const began = performance.now();
  const replica = replicaName();
  const config = loadServerConfigFromProcess();
  const store = await openStore(config.store);
  let cluster: RuntimeCluster;
  let identity: IdentityRuntime;
  let liveTimeline: { stop(): void };
  const live = new LiveSandboxes();
  // For the runtime's whole life: the store it follows closes with it.
  live.follow(store.sandboxes);
  try {
    liveTimeline = await followStoreTimeline(store.timeline, {
      // Whichever replica wrote the change, each event's sandbox is current here before the event is sent.
      beforePublish: (events) => live.refresh(store.sandboxes, events.flatMap((event) => (event.sandboxId ? [event.sandboxId] : []))),
      onError: (error) => logOf("timeline").warn({ err: error }, "reading new timeline events failed; trying again"),
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  try {
    cluster = await openCluster(config);
  } catch (error) {
    liveTimeline.stop();
    await store.close();
    throw error;
  }
  try {
    identity = await startIdentity(config, cluster.connection);
  } catch (error) {
    liveTimeline.stop();
    await Promise.allSettled([cluster.stop(), store.close()]);
    throw error;
  }
  const { inFlight, checkpointing } = operationsInFlightOn(store, replica, { onError: (error) => logOf("operations").warn({ err: error }, "keeping the operations in flight failed") });
  const leadership = config.leaderElection
    ? electedLeadership(cluster.connection, config.leaderElection, replica, (fence) => store.writerTerms.claim(fence, replica, new Date()))
    : soleWriter(replica);
  const reconciler = startReconciler(config, store, cluster, { inFlight, live, checkpointing }, leadership, replica);
  const rateLimits = new RateLimits(config.limits);
  const volumeUsage = new VolumeUsageSampler({ readSummary: (nodeName) => readKubeletSummary(cluster.connection, nodeName) });
  const runtime = { config, replica, store, cluster, identity, inFlight, checkpointing, live, leadership, reconciler, liveTimeline, rateLimits, volumeUsage, startedAt: new Date(), startupMs: Math.round(performance.now() - began) };
  const exit = () => void stopRuntime().finally(() => process.exit(0));
  process.once("SIGTERM", exit);
  process.once("SIGINT", exit);
  return runtime;
}

/** Stops the process's runtime, if it started: the reconciler first, so nothing writes to what closes next. */
export async function stopRuntime(): Promise<void> {
  const started = holder[RUNTIME];
  if (!started) return;
  delete holder[RUNTIME];
  const runtime = await started.catch(() => null);
  if (!runtime) return;
  runtime.reconciler.stop();
  runtime.liveTimeline.stop();
  // Released, so that another replica takes over at once.
  await runtime.leadership.stop();
  await Promise.allSettled([runtime.identity.stop(), runtime.cluster.stop(), runtime.store.close()]);
}

/** The process's runtime, started on first use. A failed start is not cached: the next call retries. */
export function getRuntime(): Promise<Runtime> {
  // Build workers run in parallel and must never open the embedded store.
  if (process.env.NEXT_PHASE === "phase-production-build") return Promise.reject(new BuildTimeAccessError());
  holder[RUNTIME] ??= start().catch((error: unknown) => {
    delete holder[RUNTIME];
    throw error;
  });
  return holder[RUNTIME];
}
