import { z } from "zod";
import { dns1123Label, dns1123Subdomain } from "./kubernetes-names.ts";
import { parseQuantity, positiveQuantity } from "./quantity.ts";
import type { Volume } from "./volume.ts";
import { accessModesSchema, storageClassNameSchema } from "./workspace.ts";

// What may be done to a claim from the Volumes page, as rules the browser and the server share.

/** Where a new claim's data comes from: a VolumeSnapshot restored, or another claim cloned (same namespace). */
export const volumeDataSourceSchema = z.strictObject({
  kind: z.enum(["VolumeSnapshot", "PersistentVolumeClaim"], { error: "dataSource.kind is VolumeSnapshot (restore a snapshot) or PersistentVolumeClaim (clone a claim)" }),
  name: dns1123Subdomain("dataSource.name"),
});
export type VolumeDataSource = z.infer<typeof volumeDataSourceSchema>;

/**
 * POST /api/v1/volumes: a claim made without YAML. `storageClassName` is the sandbox form's
 * three-way choice: absent for the cluster's default class, "" for none (a pre-provisioned
 * volume without a class binds it), or a class. `retain` (the default) makes it a claim Berth
 * keeps for sandboxes to take up as their retained workspace; without it the claim is the
 * person's own, which a sandbox may mount as an existing claim and Berth never deletes.
 */
export const volumeCreationSchema = z.strictObject({
  /** Absent: the gateway's default sandbox namespace. */
  namespace: dns1123Label("namespace").optional(),
  name: dns1123Subdomain("name"),
  storageClassName: storageClassNameSchema("storageClassName").optional(),
  size: positiveQuantity("size"),
  accessModes: accessModesSchema.default(["ReadWriteOnce"]),
  dataSource: volumeDataSourceSchema.optional(),
  retain: z.boolean().default(true),
});
export type VolumeCreation = z.infer<typeof volumeCreationSchema>;
export type VolumeCreationInput = z.input<typeof volumeCreationSchema>;

/** What POST /api/v1/volumes made. */
export const createdVolumeSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  uid: z.string(),
  ownership: z.enum(["retain", "existing"]),
  /** The class asked for (a clone's is its source's): null for the cluster default, "" for none. */
  storageClassName: z.string().nullable(),
});
export type CreatedVolume = z.infer<typeof createdVolumeSchema>;

/**
 * POST /api/v1/volumes/{namespace}/{name}/clone: a copy of the claim in a new one of its class.
 * `via: "clone"` (the default) asks the CSI driver to clone it (`dataSource` the claim);
 * `via: "snapshot"` takes a VolumeSnapshot of it and restores that, for a driver that takes
 * snapshots but does not clone (the CSI spec lists the two capabilities apart).
 */
export const volumeCloneRequestSchema = z.strictObject({
  /** Absent: the claim's name with `-copy`. */
  name: dns1123Subdomain("name").optional(),
  /** Absent: the claim's capacity. */
  size: positiveQuantity("size").optional(),
  retain: z.boolean().default(true),
  via: z.enum(["clone", "snapshot"], { error: "via is clone (the driver clones the claim) or snapshot (a snapshot is taken and restored)" }).default("clone"),
});
export type VolumeCloneRequestInput = z.input<typeof volumeCloneRequestSchema>;

export const clonedVolumeSchema = createdVolumeSchema.extend({
  via: volumeCloneRequestSchema.shape.via.unwrap(),
  /** The VolumeSnapshot a `snapshot` copy was restored from; kept: delete it once the copy is bound. */
  snapshot: z.string().nullable(),
});
export type ClonedVolume = z.infer<typeof clonedVolumeSchema>;

/** A copy's name when none is asked for: the claim's with `-copy`, within 253 characters. */
export const defaultCloneName = (claim: string) => `${claim.slice(0, 253 - "-copy".length)}-copy`;

/** PATCH /api/v1/persistent-volumes/{name}: what happens to the volume and its data once its claim is deleted. */
export const reclaimPolicyChangeSchema = z.strictObject({
  reclaimPolicy: z.enum(["Retain", "Delete"], { error: "reclaimPolicy is Retain (the volume and its data stay after the claim is deleted) or Delete (they go with it)" }),
});
export type ReclaimPolicyChange = z.infer<typeof reclaimPolicyChangeSchema>;
export const reclaimPolicyChangedSchema = z.object({ name: z.string(), from: z.string(), to: z.enum(["Retain", "Delete"]), claim: z.string().nullable() });
export type ReclaimPolicyChanged = z.infer<typeof reclaimPolicyChangedSchema>;

/** What switching to `policy` means, in the words the confirmation shows. */
export function reclaimPolicyMeaning(policy: "Retain" | "Delete"): string {
  return policy === "Retain"
    ? "When the claim is deleted, the volume and its data stay (Released): nothing is lost, but the storage stays in use until an admin deletes the volume, and no new claim binds it by itself."
    : "When the claim is deleted, the volume and all its data are deleted with it, by the storage driver. This cannot be undone once it happens.";
}

/** PATCH /api/v1/volumes/{namespace}/{name}: ask for more storage. */
export const volumeExpansionSchema = z.strictObject({ size: positiveQuantity("size") });
export type VolumeExpansion = z.infer<typeof volumeExpansionSchema>;

/** Why `size` cannot replace the claim's current request, or null: Kubernetes never shrinks a claim. */
export function expansionProblem(currentRequest: string | null, size: string): string | null {
  const next = parseQuantity(size);
  const current = currentRequest === null ? null : parseQuantity(currentRequest);
  if (next === null || current === null || next > current) return null;
  return `size must be larger than the claim's current ${currentRequest}: a claim can grow, never shrink`;
}

/** Nothing uses the claim and no live sandbox owns it: it may be deleted (the API checks again). */
export function mayDelete(volume: Pick<Volume, "state" | "sandbox" | "phase">): boolean {
  return volume.state !== "attached" && volume.phase !== "Terminating" && (volume.sandbox === null || volume.sandbox.deleted);
}

/** A claim a new sandbox can take as its `existing` workspace: kept on purpose and free. */
export function mayStartSandboxFrom(volume: Pick<Volume, "state" | "sandbox" | "ownership" | "phase">): boolean {
  return mayDelete(volume) && volume.state === "detached" && (volume.ownership === "retain" || volume.ownership === "existing");
}

/**
 * Where the create form takes a claim to pre-select it as an existing workspace. Namespaces and
 * claim names are DNS names, so the pair needs no escaping and stays readable in the address.
 */
export function startFromClaimHref(volume: Pick<Volume, "namespace" | "name">): string {
  return `/sandboxes/new?claim=${volume.namespace}/${volume.name}`;
}

/** What the Volumes page offers per class: Expand where claims can grow, Clone where the driver fills a claim from a source, Move to the classes whose volumes follow their pod. */
export interface VolumeClassTraits {
  expandable: readonly string[];
  clonable: readonly string[];
  portable: readonly string[];
}

export const NO_CLASS_TRAITS: VolumeClassTraits = { expandable: [], clonable: [], portable: [] };

/** Where the claim form takes a claim to clone it. */
export function cloneClaimHref(volume: Pick<Volume, "namespace" | "name">): string {
  return `/volumes/new?clone=${volume.namespace}/${volume.name}`;
}

/** The claim a `?claim=` or `?clone=` address names, as `<namespace>/<name>`; undefined for anything else. */
export function claimRefOf(parameter: string | string[] | undefined): { namespace: string; name: string } | undefined {
  if (typeof parameter !== "string") return undefined;
  const [namespace, name, ...rest] = parameter.split("/");
  return namespace && name && rest.length === 0 ? { namespace, name } : undefined;
}

/** The claim asks for more than its volume has yet: a resize is under way (or waits on a resizer). */
export function isResizing(volume: Pick<Volume, "requested" | "capacity">): boolean {
  const requested = volume.requested === null ? null : parseQuantity(volume.requested);
  const capacity = volume.capacity === null ? null : parseQuantity(volume.capacity);
  return requested !== null && capacity !== null && requested > capacity;
}

/** How long a new Pending claim is looked at again for: a provisioner answers within it, or the claim waits for a first consumer. */
export const NEW_CLAIM_SETTLE_MS = 120_000;

/**
 * The claim is on its way to another state that no timeline event will announce: a resize, a
 * deletion held by a pod, the pod of a deleted sandbox still letting go of it, or a new claim
 * being provisioned (a claim that waits for its first consumer stays Pending: it is looked at
 * again only while new).
 */
export function isSettling(volume: Pick<Volume, "requested" | "capacity" | "phase" | "state" | "sandbox" | "attachedTo" | "createdAt">, now = Date.now()): boolean {
  if (isResizing(volume) || volume.phase === "Terminating") return true;
  if (volume.phase === "Pending" && volume.createdAt !== null && now - Date.parse(volume.createdAt) < NEW_CLAIM_SETTLE_MS) return true;
  return volume.state === "attached" && volume.sandbox !== null && volume.sandbox.deleted && volume.attachedTo?.pod === volume.sandbox.name;
}
