import type { LeaderElectionConfig } from "../config/index.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { LeaderElector, type Leadership as LeaseState } from "../kube/leader-election.ts";
import type { WriterFence } from "../store/index.ts";
import { logOf } from "../platform/logger.ts";

// Which replica writes. With PostgreSQL, several replicas may share the store, and they elect
// one on a Lease; the leader claims its term in the store before it writes, and its writes of
// derived state carry that term (the fence), so that a leader deposed while it was paused
// cannot write twice. With the embedded store, one process alone may open it: it always writes,
// unfenced.

export interface Leadership {
  /** Whether this replica writes now. */
  leading(): boolean;
  /** What this replica's writes of derived state carry; undefined when nothing is fenced. */
  fence(): WriterFence | undefined;
  /** This replica's term while it leads, and who leads as last seen. */
  state(): LeaseState;
  /** Told when this replica starts or stops writing, or another leader is seen. */
  onChange(listener: () => void): () => void;
  stop(): Promise<void>;
}

/** The embedded store's one process. */
export function soleWriter(replica: string): Leadership {
  const state: LeaseState = { leading: { term: 0 }, holder: replica };
  return { leading: () => true, fence: () => undefined, state: () => state, onChange: () => () => {}, stop: async () => {} };
}

/** Elected on the configured Lease, as `replica`; `claim` records a won term in the store (false: a newer one is there). */
export function electedLeadership(connection: ClusterConnection, config: LeaderElectionConfig, replica: string, claim: (fence: WriterFence) => Promise<boolean>): Leadership {
  const elector = new LeaderElector(connection, {
    namespace: config.namespace,
    name: config.leaseName,
    identity: replica,
    leaseDurationMs: config.leaseDurationMs,
    renewDeadlineMs: config.renewDeadlineMs,
    retryPeriodMs: config.retryPeriodMs,
    onError: (error) => logOf("leadership").warn({ err: error, lease: `${config.namespace}/${config.leaseName}` }, "leader election failed; trying again"),
  });
  const listeners = new Set<() => void>();
  const tell = () => listeners.forEach((listener) => listener());
  let claimed: WriterFence | null = null;
  let retry: NodeJS.Timeout | undefined;
  const currentTerm = () => elector.leadership.leading?.term ?? null;

  // Until the term is claimed in the store, this replica holds the Lease but writes nothing.
  const claimTerm = async (term: number) => {
    const fence = { lease: config.leaseName, term };
    const won = await claim(fence).catch((error: unknown) => {
      logOf("leadership").warn({ err: error, term }, "claiming the term in the store failed; trying again");
      return null;
    });
    if (currentTerm() !== term) return;
    if (won === null) {
      retry = setTimeout(() => void claimTerm(term), config.retryPeriodMs);
      retry.unref?.();
      return;
    }
    if (!won) {
      logOf("leadership").warn({ replica, term }, "this replica holds the Lease, but the store has a newer term: it writes nothing");
      return;
    }
    claimed = fence;
    tell();
  };

  elector.onChange((state) => {
    clearTimeout(retry);
    const term = state.leading?.term ?? null;
    if (claimed && claimed.term !== term) claimed = null;
    logOf("leadership").info({ replica, leading: Boolean(state.leading), term: state.leading?.term, holder: state.holder }, state.leading ? "leads" : "follows");
    if (term !== null && !claimed) void claimTerm(term);
    tell();
  });
  elector.start();
  const writing = () => claimed !== null && claimed.term === currentTerm() && elector.isLeading();
  return {
    leading: writing,
    // Always a fence when elected: one no term matches until a term is claimed, so that a write
    // that slipped past leading() is refused rather than let through unfenced.
    fence: () => claimed ?? { lease: config.leaseName, term: -1 },
    state: () => elector.leadership,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop: async () => {
      clearTimeout(retry);
      await elector.stop();
    },
  };
}
