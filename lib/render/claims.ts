import type { GatewayDefaults } from "../domain/gateway-defaults.ts";
import { claimLabels } from "../domain/labels.ts";
import type { ResolvedWorkspace } from "../domain/resolve-workspace.ts";
import type { Volume } from "../domain/volumes.ts";
import {
  type ClaimOwnership,
  type StorageClassChoice,
  WORKSPACE_VOLUME_NAME,
  storageClassChoice,
  storageClassNameFor,
} from "../domain/workspace.ts";
import type { PersistentVolumeClaimManifest, PersistentVolumeClaimSpec } from "./manifests.ts";

/**
 * A claim the sandbox mounts that the agent-sandbox controller does not manage (template
 * claims are the controller's, and are not listed). The lifecycle service acts on it:
 * - `manifest` present: create it before the Sandbox if it is missing (AlreadyExists is fine);
 * - `manifest` absent: it must already exist; refuse to create the sandbox otherwise;
 * - `ownership` `delete`: delete it with the sandbox; `retain` and `existing`: never.
 * An extra volume with createIfNotExists false and deleteOnSandboxTermination true is the one
 * claim that is both brought by the user and deleted by Berth, as OpenSandbox allows.
 */
export interface ClaimPlan {
  name: string;
  ownership: Exclude<ClaimOwnership, "template">;
  /** The pod volumes that mount it: `workspace`, or extra volume names. */
  mountedBy: string[];
  manifest?: PersistentVolumeClaimManifest;
}

interface ClaimContext {
  namespace: string;
  sandbox: { id: string; name: string };
  labelPrefix: string;
}

export function claimSpec(size: string, accessModes: string[], storageClass: StorageClassChoice): PersistentVolumeClaimSpec {
  const storageClassName = storageClassNameFor(storageClass);
  return {
    accessModes: [...accessModes],
    resources: { requests: { storage: size } },
    ...(storageClassName === undefined ? {} : { storageClassName }),
  };
}

function claimManifest(
  context: ClaimContext,
  name: string,
  ownership: ClaimPlan["ownership"],
  spec: PersistentVolumeClaimSpec,
): PersistentVolumeClaimManifest {
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name, namespace: context.namespace, labels: claimLabels(context.labelPrefix, context.sandbox, ownership) },
    spec,
  };
}

function workspaceClaimPlan(context: ClaimContext, workspace: ResolvedWorkspace): ClaimPlan | undefined {
  if (workspace.backend !== "pvc") return undefined;
  const { claim } = workspace;
  if (claim.ownership === "template") return undefined;
  const plan: ClaimPlan = { name: claim.claimName, ownership: claim.ownership, mountedBy: [WORKSPACE_VOLUME_NAME] };
  if (claim.ownership === "existing") return plan;
  const spec = claimSpec(claim.size, claim.accessModes, claim.storageClass);
  return { ...plan, manifest: claimManifest(context, claim.claimName, claim.ownership, spec) };
}

function volumeOwnership(volume: Volume): ClaimPlan["ownership"] {
  if (volume.pvc.deleteOnSandboxTermination) return "delete";
  return volume.pvc.createIfNotExists ? "retain" : "existing";
}

/** Every claim outside the Sandbox's templates, in mount order, one entry per claim. */
export function planClaims(
  context: ClaimContext,
  workspace: ResolvedWorkspace,
  volumes: Volume[],
  defaults: GatewayDefaults,
): ClaimPlan[] {
  const plans: ClaimPlan[] = [];
  const workspacePlan = workspaceClaimPlan(context, workspace);
  if (workspacePlan) plans.push(workspacePlan);

  for (const volume of volumes) {
    // Validation guarantees that mounts of one claim agree on its lifecycle, so the first decides.
    const known = plans.find((plan) => plan.name === volume.pvc.claimName);
    if (known) {
      known.mountedBy.push(volume.name);
      continue;
    }
    const ownership = volumeOwnership(volume);
    const plan: ClaimPlan = { name: volume.pvc.claimName, ownership, mountedBy: [volume.name] };
    if (!volume.pvc.createIfNotExists) {
      plans.push(plan);
      continue;
    }
    const spec = claimSpec(
      volume.pvc.storage ?? defaults.workspaceDefaultStorageSize,
      volume.pvc.accessModes ?? ["ReadWriteOnce"],
      // Unset follows the gateway, as for the workspace: on a cluster without a default class
      // the gateway's class is what lets any claim bind at all.
      storageClassChoice(volume.pvc.storageClass ?? defaults.workspaceStorageClass),
    );
    plans.push({ ...plan, manifest: claimManifest(context, volume.pvc.claimName, ownership, spec) });
  }
  return plans;
}
