import { connection } from "next/server";
import { findingLines } from "@/lib/domain/agent-sandbox-install.ts";
import type { Health } from "@/lib/domain/health.ts";
import { checkHealth } from "@/lib/server/health.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { StatusBadges, type StatusItem } from "@/app/components/status-badges.tsx";

const STORE_NAMES: Record<Health["store"]["kind"], string> = {
  pglite: "PGlite",
  postgresql: "PostgreSQL",
};

const CLUSTER_NAMES: Record<Health["cluster"]["mode"], string> = {
  embedded: "Embedded",
  kubeconfig: "Kubeconfig",
  "in-cluster": "In-cluster",
};

/** Shown while the status is being read. */
export const PENDING_STATUS: readonly StatusItem[] = [
  { label: "Store", value: "Checking…", tone: "pending" },
  { label: "Cluster", value: "Checking…", tone: "pending" },
];

/** The header's badges say what /api/health says, from the same server-side check. */
export function statusItems(health: Health): StatusItem[] {
  return [
    {
      label: "Store",
      value: STORE_NAMES[health.store.kind],
      tone: health.store.ok ? "ok" : "warning",
      description: health.store.message,
    },
    {
      label: "Cluster",
      value: health.cluster.connected ? CLUSTER_NAMES[health.cluster.mode] : "Not connected",
      // A half-migrated agent-sandbox install works, but someone should look.
      tone: !health.cluster.connected ? "neutral" : health.cluster.agentSandbox && findingLines(health.cluster.agentSandbox, "warning").length > 0 ? "warning" : "ok",
      description: health.cluster.message,
    },
  ];
}

/** Reads the runtime on the server and shows the header's status badges. */
export async function RuntimeStatus() {
  await connection();
  try {
    // Every page renders the badges: a few seconds' old answer saves a round trip to the cluster.
    const health = await checkHealth(await getRuntime(), { maxAgeMs: 5_000 });
    return <StatusBadges items={statusItems(health)} />;
  } catch (error) {
    console.error("berth: could not read the runtime for the status badges", error);
    return (
      <StatusBadges
        items={[
          {
            label: "Store",
            value: "Unavailable",
            tone: "warning",
            description: "Berth could not start its runtime; the server log says why",
          },
          { label: "Cluster", value: "Unknown", tone: "pending" },
        ]}
      />
    );
  }
}
