import type { Advice } from "@/app/(console)/sandboxes/new/_components/workspace-advice.ts";
import type { SpecProblem } from "@/lib/domain/problems.ts";
import type { StorageClassView } from "@/lib/domain/storage-class.ts";
import { problemsFromZodError } from "@/lib/domain/problems.ts";
import { volumeCreationSchema, type VolumeCreation, type VolumeCreationInput } from "@/lib/domain/volume-actions.ts";
import { storageClassNameFor, type AccessMode, type StorageClassChoice } from "@/lib/domain/workspace.ts";

// The claim form as the person fills it in, and the request it sends: the same rules as the
// server (volumeCreationSchema), each problem placed on the field it is about. Pure.

export type ClaimSourceKind = "empty" | "VolumeSnapshot" | "PersistentVolumeClaim";

export interface ClaimFormValues {
  namespace: string;
  name: string;
  storageClass: { choice: StorageClassChoice["kind"]; name: string };
  size: string;
  accessModes: AccessMode[];
  source: { kind: ClaimSourceKind; name: string };
  /** retain: Berth keeps it for sandboxes to take up; existing: the person's own, mounted as it is. */
  ownership: "retain" | "existing";
}

export function initialClaimValues(namespace: string, source?: { kind: Exclude<ClaimSourceKind, "empty">; name: string }): ClaimFormValues {
  return {
    namespace,
    name: "",
    // A clone is made in its source's class: leave it to the server, which takes the source's.
    storageClass: { choice: "cluster-default", name: "" },
    size: "",
    accessModes: ["ReadWriteOnce"],
    source: source ?? { kind: "empty", name: "" },
    ownership: "retain",
  };
}

/** What POST /api/v1/volumes is sent. */
export function claimRequestOf(values: ClaimFormValues): VolumeCreationInput {
  const storageClassName = storageClassNameFor(values.storageClass.choice === "named" ? { kind: "named", name: values.storageClass.name.trim() } : { kind: values.storageClass.choice });
  return {
    namespace: values.namespace.trim(),
    name: values.name.trim(),
    size: values.size.trim(),
    accessModes: values.accessModes,
    retain: values.ownership === "retain",
    ...(storageClassName === undefined ? {} : { storageClassName }),
    ...(values.source.kind === "empty" ? {} : { dataSource: { kind: values.source.kind, name: values.source.name.trim() } }),
  };
}

/** The form field a problem of the request is about, or null for one no field shows. */
export function claimFieldOf(path: SpecProblem["path"]): string | null {
  const [first, second] = path;
  switch (first) {
    case "namespace":
    case "name":
    case "size":
      return first;
    case "retain":
      return "ownership";
    case "accessModes":
      return "accessModes";
    case "storageClassName":
      return "storageClass.name";
    case "dataSource":
      return second === "kind" ? "source.kind" : "source.name";
    default:
      return null;
  }
}

/** The request the form would send, or the problems the server would answer with. */
export function checkedClaimRequest(values: ClaimFormValues): { ok: true; request: VolumeCreation } | { ok: false; problems: SpecProblem[] } {
  // An unchosen class would read as "" — no class at all — which is not what was asked.
  const unchosen: SpecProblem[] = values.storageClass.choice === "named" && values.storageClass.name.trim() === ""
    ? [{ code: "volume.class-unchosen", path: ["storageClassName"], message: "choose a class, or pick the cluster default" }]
    : [];
  const parsed = volumeCreationSchema.safeParse(claimRequestOf(values));
  if (parsed.success && unchosen.length === 0) return { ok: true, request: parsed.data };
  return { ok: false, problems: [...unchosen, ...(parsed.success ? [] : problemsFromZodError(parsed.error))] };
}

/**
 * The warning before a restore or clone into a class whose driver would hand out an empty volume
 * (the server refuses it; the form says so as soon as the class is chosen). `target` is the class
 * the claim ends up with, as effectiveClass reads it; null for an empty claim or a class not known yet.
 */
export function fillAdvice(kind: ClaimSourceKind, target: StorageClassView | "none" | "unknown" | null): Advice | null {
  if (kind === "empty" || target === "unknown") return null;
  const what = kind === "VolumeSnapshot" ? "restore a snapshot" : "clone a claim";
  if (target === null || target === "none") return { tone: "warning", text: `A claim without a class cannot ${what}: a pre-provisioned volume would bind it empty. Choose a class whose driver takes snapshots.` };
  if (target.snapshots) return null;
  return { tone: "warning", text: `${target.name} (${target.provisioner}) does not fill a new volume from a source: the claim would be empty. Choose a class whose driver takes snapshots.` };
}
