import { berthLabelKeys } from "../domain/labels.ts";
import { previewMaintenance } from "../disruption/maintenance-preview.ts";
import type { MaintenancePreview } from "../domain/maintenance-preview.ts";
import type { NodeView } from "../domain/node-view.ts";
import { SANDBOX_NAME_HASH_LABEL } from "../domain/sandbox-api.ts";
import type { Volume } from "../domain/volume.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { nodeResources } from "../kube/node-resources.ts";
import { podDisruptionBudgetName } from "../render/pod-disruption-budget.ts";
import type { Store } from "../store/index.ts";
import { describeNodes } from "./describe-nodes.ts";
import { describeVolumes, type SandboxRef } from "./describe-volumes.ts";
import type { LiveSandboxes } from "./live-sandboxes.ts";
import type { SandboxWatches } from "./sandbox-watches.ts";

// The read models every replica serves from its own watch caches and live list: claims with the
// sandbox each belongs to, nodes with their sandboxes, and what draining a node would do.

export interface ClusterViewSources {
  watches: SandboxWatches;
  live: LiveSandboxes;
  store: Pick<Store, "sandboxes">;
  connection: ClusterConnection;
  labelPrefix: string;
}

/** Every claim Berth knows, from the watches, with the sandbox each belongs to. */
export async function volumesView({ watches, live, store, labelPrefix }: ClusterViewSources): Promise<Volume[]> {
  const keys = berthLabelKeys(labelPrefix);
  const claims = watches.claims.list();
  const byId = new Map<string, SandboxRef | null>();
  for (const id of new Set(claims.flatMap((claim) => claim.metadata?.labels?.[keys.sandboxId] ?? []))) {
    const record = await store.sandboxes.getSandbox(id);
    byId.set(id, record ? { id: record.id, name: record.name, deleted: record.deletedAt !== null } : null);
  }
  const byName = new Map<string, SandboxRef>();
  for (const record of live.all()) byName.set(`${record.namespace}/${record.name}`, { id: record.id, name: record.name, deleted: false });
  return describeVolumes({
    claims,
    pods: watches.pods.list(),
    persistentVolumes: watches.persistentVolumes.list(),
    claimEvents: watches.claimEvents.list(),
    labelPrefix,
    sandboxById: (id) => byId.get(id) ?? null,
    liveSandboxByName: (namespace, name) => byName.get(`${namespace}/${name}`) ?? null,
  });
}

/** Every node with the sandboxes on it. */
export function nodesView({ watches, live }: Pick<ClusterViewSources, "watches" | "live">): NodeView[] {
  return describeNodes(watches.nodes.list(), live.all());
}

/** What draining the node would do to each pod on it; null for a node the cluster does not have. */
export async function maintenancePreviewOf({ watches, live, connection }: ClusterViewSources, nodeName: string): Promise<MaintenancePreview | null> {
  const node = watches.nodes.get(undefined, nodeName);
  if (!node) return null;
  const byName = new Map(live.all().map((record) => [`${record.namespace}/${record.name}`, record]));
  return previewMaintenance({
    node,
    nodes: watches.nodes.list(),
    pods: await nodeResources(connection).listPodsOnNode(nodeName),
    claims: watches.claims.list(),
    persistentVolumes: watches.persistentVolumes.list(),
    sandboxOf: (pod) => {
      const record = pod.metadata?.labels?.[SANDBOX_NAME_HASH_LABEL] !== undefined ? byName.get(`${pod.metadata?.namespace}/${pod.metadata?.name}`) : undefined;
      if (!record) return null;
      return { id: record.id, name: record.name, workspaceBackend: record.workspaceBackend, protected: watches.budgets.get(record.namespace, podDisruptionBudgetName(record.name)) !== undefined };
    },
  });
}
