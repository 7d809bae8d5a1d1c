import type { V1Node, V1PersistentVolume, V1PersistentVolumeClaim, V1Pod } from "@kubernetes/client-node";
import { pinnedNodeOf } from "../kube/volume-topology.ts";
import type { MaintenancePreview, PodDrainPreview } from "../domain/maintenance-preview.ts";
import { nodeIsCordoned, nodeIsDown } from "./node-state.ts";

// What draining a node would do to each pod on it, said before anything is done: a sandbox moves
// elsewhere, or waits for this node because its volume is pinned here, or loses an ephemeral
// workspace; a protected one is checkpointed first; other pods go the way `kubectl drain` takes
// them. Pure: a reading of the pods, claims, volumes and nodes the caller observed.

export interface PreviewSandbox {
  id: string;
  name: string;
  workspaceBackend: "pvc" | "ephemeral";
  protected: boolean;
}

export interface PreviewInputs {
  node: V1Node;
  nodes: V1Node[];
  /** Every pod bound to the node. */
  pods: V1Pod[];
  claims: V1PersistentVolumeClaim[];
  persistentVolumes: V1PersistentVolume[];
  /** The Berth sandbox a pod runs, or null. */
  sandboxOf: (pod: V1Pod) => PreviewSandbox | null;
}



/** The claims of the pod whose volume is pinned to this node. */
function claimsPinnedHere(pod: V1Pod, inputs: PreviewInputs, nodeName: string): string[] {
  const namespace = pod.metadata?.namespace;
  return (pod.spec?.volumes ?? []).flatMap((volume) => {
    const claimName = volume.persistentVolumeClaim?.claimName;
    if (!claimName) return [];
    const claim = inputs.claims.find((one) => one.metadata?.namespace === namespace && one.metadata?.name === claimName);
    const bound = inputs.persistentVolumes.find((one) => one.metadata?.name === claim?.spec?.volumeName);
    return pinnedNodeOf(bound) === nodeName ? [claimName] : [];
  });
}

/** How `kubectl drain --ignore-daemonsets --delete-emptydir-data` treats a pod that is not a sandbox. */
function notASandbox(pod: V1Pod): Pick<PodDrainPreview, "outcome" | "message"> {
  const owners = pod.metadata?.ownerReferences ?? [];
  if (pod.metadata?.annotations?.["kubernetes.io/config.mirror"]) return { outcome: "ignored", message: "A static (mirror) pod: drain leaves it; it belongs to the node's kubelet" };
  if (owners.some((owner) => owner.kind === "DaemonSet")) return { outcome: "ignored", message: "A DaemonSet pod: drain leaves it (--ignore-daemonsets); it goes with the node" };
  if (!owners.some((owner) => owner.controller)) return { outcome: "refused", message: "Not managed by a controller: drain refuses it without --force, and nothing would recreate it elsewhere" };
  return { outcome: "evicted", message: "Not a sandbox: evicted as kubectl drain would; its controller recreates it elsewhere" };
}

function sandboxPreview(pod: V1Pod, sandbox: PreviewSandbox, inputs: PreviewInputs, nodeName: string, elsewhere: string[]): Pick<PodDrainPreview, "outcome" | "message"> {
  const pinned = claimsPinnedHere(pod, inputs, nodeName);
  if (pinned.length > 0) {
    return { outcome: "waitsForNode", message: `Waits for ${nodeName}: claim ${pinned.join(", ")} is on a volume pinned to this node, so the replacement stays Pending until the node is uncordoned (its files are kept)` };
  }
  if (elsewhere.length === 0) return { outcome: "cannotMove", message: "No other node can take it: the replacement stays Pending until one can" };
  if (sandbox.workspaceBackend === "ephemeral") {
    return { outcome: "losesWorkspace", message: `Moves to another node (${elsewhere.join(", ")}) but loses its ephemeral workspace: the replacement starts from the image's seed` };
  }
  return { outcome: "moves", message: `Moves to another node (${elsewhere.join(", ")}) with its workspace claim` };
}

export function previewMaintenance(inputs: PreviewInputs): MaintenancePreview {
  const nodeName = inputs.node.metadata?.name ?? "";
  const elsewhere = inputs.nodes
    .filter((node) => node.metadata?.name !== nodeName && !nodeIsCordoned(node) && !nodeIsDown(node))
    .map((node) => node.metadata?.name ?? "")
    .sort();
  const pods = inputs.pods
    .filter((pod) => !["Succeeded", "Failed"].includes(pod.status?.phase ?? ""))
    .map((pod): PodDrainPreview => {
      const sandbox = inputs.sandboxOf(pod);
      const verdict = sandbox ? sandboxPreview(pod, sandbox, inputs, nodeName, elsewhere) : notASandbox(pod);
      const checkpointedFirst = sandbox?.protected ?? false;
      return {
        namespace: pod.metadata?.namespace ?? "",
        pod: pod.metadata?.name ?? "",
        sandbox: sandbox ? { id: sandbox.id, name: sandbox.name } : null,
        ...verdict,
        checkpointedFirst,
        message: checkpointedFirst ? `Protected: checkpointed first, then its budget is relaxed for the eviction and restored once the replacement is Ready. ${verdict.message}` : verdict.message,
      };
    })
    .sort((a, b) => `${a.namespace}/${a.pod}`.localeCompare(`${b.namespace}/${b.pod}`));
  return { node: nodeName, cordoned: nodeIsCordoned(inputs.node), otherSchedulableNodes: elsewhere, pods };
}
