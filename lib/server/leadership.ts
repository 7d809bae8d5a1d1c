import type { LeaderElectionConfig } from "../config/index.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { LeaderElector, type Leadership as LeaseState } from "../kube/leader-election.ts";

// Which replica writes. With PostgreSQL, several replicas may share the store, and they elect
// one on a Lease; with the embedded store, one process alone may open it, so it always writes.

export interface Leadership {
  /** Whether this replica writes now. */
  leading(): boolean;
  /** This replica's term while it leads, and who leads as last seen. */
  state(): LeaseState;
  /** Told when this replica starts or stops leading, or another leader is seen. */
  onChange(listener: () => void): () => void;
  stop(): Promise<void>;
}

/** The embedded store's one process. */
export function soleWriter(replica: string): Leadership {
  const state: LeaseState = { leading: { term: 0 }, holder: replica };
  return { leading: () => true, state: () => state, onChange: () => () => {}, stop: async () => {} };
}

/** Elected on the configured Lease, as `replica`. */
export function electedLeadership(connection: ClusterConnection, config: LeaderElectionConfig, replica: string): Leadership {
  const elector = new LeaderElector(connection, {
    namespace: config.namespace,
    name: config.leaseName,
    identity: replica,
    leaseDurationMs: config.leaseDurationMs,
    renewDeadlineMs: config.renewDeadlineMs,
    retryPeriodMs: config.retryPeriodMs,
    onError: (error) => console.warn(`berth: leader election on Lease ${config.namespace}/${config.leaseName}: ${(error as Error)?.message ?? String(error)}`),
  });
  elector.onChange((state) => console.log(state.leading ? `berth: ${replica} leads (term ${state.leading.term})` : `berth: ${replica} follows ${state.holder ?? "no leader yet"}`));
  elector.start();
  return {
    leading: () => elector.isLeading(),
    state: () => elector.leadership,
    onChange: (listener) => elector.onChange(() => listener()),
    stop: () => elector.stop(),
  };
}
