import type { V1Node } from "@kubernetes/client-node";
import { nodeIsCordoned, nodeIsDown } from "../disruption/node-state.ts";
import { selects, type LabelSelector } from "../domain/label-selector.ts";
import type { NodeView } from "../domain/node-view.ts";
import type { Page, SandboxRecord } from "../domain/sandbox-record.ts";
import { pageAfterKey } from "./key-paging.ts";

// The nodes, each with the sandboxes on it: where a platform team starts planning maintenance.


const NODE_CURSOR = /^[a-z0-9][a-z0-9.-]*$/;

/** One page of nodes, by name, of those a label selector picks. */
export function pageOfNodes(views: NodeView[], request: { limit: number; cursor?: string; labelSelector?: LabelSelector }): Page<NodeView> {
  const { labelSelector = [] } = request;
  return pageAfterKey(views.filter((view) => selects(labelSelector, view.labels)), (view) => view.name, NODE_CURSOR, request);
}

export function describeNodes(nodes: V1Node[], sandboxes: SandboxRecord[]): NodeView[] {
  return nodes
    .map((node) => {
      const name = node.metadata?.name ?? "";
      return {
        name,
        ready: !nodeIsDown(node),
        cordoned: nodeIsCordoned(node),
        labels: { ...node.metadata?.labels },
        sandboxes: sandboxes
          .filter((record) => record.nodeName === name)
          .map((record) => ({ id: record.id, name: record.name, namespace: record.namespace, phase: record.phase, warmPool: record.details.handout?.pool ?? null }))
          .sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`)),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
