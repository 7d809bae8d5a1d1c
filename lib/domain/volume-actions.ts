import { z } from "zod";
import { parseQuantity, positiveQuantity } from "./quantity.ts";
import type { Volume } from "./volume.ts";

// What may be done to a claim from the Volumes page, as rules the browser and the server share.

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

/** The claim asks for more than its volume has yet: a resize is under way (or waits on a resizer). */
export function isResizing(volume: Pick<Volume, "requested" | "capacity">): boolean {
  const requested = volume.requested === null ? null : parseQuantity(volume.requested);
  const capacity = volume.capacity === null ? null : parseQuantity(volume.capacity);
  return requested !== null && capacity !== null && requested > capacity;
}

/**
 * The claim is on its way to another state that no timeline event will announce: a resize, a
 * deletion held by a pod, or the pod of a deleted sandbox still letting go of it.
 */
export function isSettling(volume: Pick<Volume, "requested" | "capacity" | "phase" | "state" | "sandbox" | "attachedTo">): boolean {
  if (isResizing(volume) || volume.phase === "Terminating") return true;
  return volume.state === "attached" && volume.sandbox !== null && volume.sandbox.deleted && volume.attachedTo?.pod === volume.sandbox.name;
}
