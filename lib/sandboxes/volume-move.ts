import type { V1Pod } from "@kubernetes/client-node";
import { BERTH_ACTOR, type Actor, type AuditEntry } from "../domain/audit.ts";
import { berthLabelKeys, MANAGED_BY_BERTH } from "../domain/labels.ts";
import { parseQuantity } from "../domain/quantity.ts";
import { problemsFromZodError } from "../domain/problems.ts";
import type { StorageClassView } from "../domain/storage-class.ts";
import type { Volume } from "../domain/volume.ts";
import { defaultMoveTarget, isMoveUnderWay, volumeMoveRequestSchema, type VolumeMove, type VolumeMovePhase } from "../domain/volume-move.ts";
import type { HelperPods } from "../kube/helper-pods.ts";
import { KubeApiError } from "../kube/kube-errors.ts";
import type { VolumeResources } from "../kube/volume-resources.ts";
import { renderStandaloneClaim } from "../render/standalone-claim.ts";
import { markAsBeingFilled, renderVolumeMoverPod, VOLUME_MOVER_CONTAINER, VOLUME_MOVER_HELPER, volumeMoverKeys } from "../render/volume-mover-pod.ts";
import { VOLUME_READER_HELPER } from "../render/volume-reader-pod.ts";
import type { Store } from "../store/index.ts";
import { claimUsers } from "./claim-users.ts";
import { RequestRejectedError, VolumeConflictError, VolumeNotFoundError, VolumeStateError } from "./lifecycle-errors.ts";

// "Move a workspace to a portable class": the files of a claim copied, as the person, into a new
// claim of a class whose volumes follow their pod, so that a sandbox started on it survives the
// loss of its node. The old claim is never touched: it stays until the person deletes it. The
// copy is a helper pod (lib/render/volume-mover-pod.ts); where a move is comes from that pod while
// it exists, and from the claim's history once the reconciler has recorded its end. The
// reconciler's sweep (sweepVolumeMovers) is level-triggered: every ended or overdue mover is
// recorded, the new claim of a failed one deleted (a half-filled claim is worse than none), and
// the pod removed — whoever started it, whatever stopped half-way.

export interface VolumeMoveDeps {
  /** As the person: the API server decides whether they may make the claim and the pod. */
  volumes: VolumeResources;
  pods: HelperPods;
  /** The claims Berth knows, with the pod that mounts each. */
  known: () => Promise<Volume[]>;
  /** The same claims with how full each is, where a kubelet measures it. */
  withUsage: (volumes: Volume[]) => Promise<Volume[]>;
  /** The cluster's classes, read as Berth. */
  storageClasses: () => Promise<StorageClassView[]>;
  audit: Pick<Store["audit"], "recordChange" | "listChanges">;
  labelPrefix: string;
  image: string;
  now?: () => Date;
}

const MOVE_START = "volume.move";
const MOVE_FINISH = "volume.move-finish";
/** How many finished moves of a claim its page shows. */
const FINISHED_SHOWN = 5;

const nowOf = (deps: Pick<VolumeMoveDeps, "now">) => (deps.now ?? (() => new Date()))();
const moverSelector = (labelPrefix: string) => `${berthLabelKeys(labelPrefix).managedBy}=${MANAGED_BY_BERTH},${volumeMoverKeys(labelPrefix).helper}=${VOLUME_MOVER_HELPER}`;
const fieldProblem = (path: string[], message: string, code: string) => new RequestRejectedError([{ code, path, message }]);

/**
 * Starts copying claim `name` into a new claim of a portable class: refused first, on its field,
 * when the class is missing or pins its volumes to a node, the size is smaller than the old
 * claim, or the name is taken; refused with 409 while the claim is not bound, is in use (a copy of
 * a workspace being written would not be whole), or is already being moved. A pod that cannot be
 * made takes its new claim with it: nothing half-made stays behind.
 */
export async function startVolumeMove(deps: VolumeMoveDeps, namespace: string, name: string, input: unknown, actor: Actor): Promise<VolumeMove> {
  const parsed = volumeMoveRequestSchema.safeParse(input ?? {});
  if (!parsed.success) throw new RequestRejectedError(problemsFromZodError(parsed.error));
  const request = parsed.data;
  const target = request.name ?? defaultMoveTarget(name);
  const volume = (await deps.known()).find((one) => one.namespace === namespace && one.name === name);
  const claim = volume ? await deps.volumes.readClaim(namespace, name) : null;
  if (!volume || !claim?.metadata?.uid) throw new VolumeNotFoundError(namespace, name);

  const classes = await deps.storageClasses();
  const storageClass = classes.find((one) => one.name === request.storageClassName);
  const portable = classes.filter((one) => one.placement === "portable").map((one) => one.name);
  const choose = portable.length > 0 ? `choose ${portable.join(" or ")}` : "this cluster has no portable class";
  if (!storageClass) throw fieldProblem(["storageClassName"], `the cluster has no StorageClass named ${request.storageClassName}: ${choose}`, "volume.class-missing");
  if (storageClass.placement !== "portable") {
    throw fieldProblem(["storageClassName"], `class ${storageClass.name} pins each volume to the node it was made on (${storageClass.placementReason}), so a sandbox on the copy would not survive that node's loss either: ${choose}`, "volume.class-not-portable");
  }
  if (target === name) throw fieldProblem(["name"], `the new claim needs a name of its own: ${name} is the claim being moved`, "volume.move-same-name");

  if (claim.status?.phase !== "Bound" || claim.metadata.deletionTimestamp) {
    throw new VolumeStateError(`Claim ${namespace}/${name} is ${claim.metadata.deletionTimestamp ? "being deleted" : (claim.status?.phase ?? "Pending")}: only a bound claim can be moved.`);
  }
  const capacity = claim.status?.capacity?.storage ?? claim.spec?.resources?.requests?.storage ?? null;
  const size = request.size ?? capacity;
  if (!size) throw fieldProblem(["size"], `claim ${name} says nothing of its size: give the new claim's size`, "volume.size-unknown");
  const smallest = capacity === null ? null : parseQuantity(capacity);
  if (request.size && smallest !== null && parseQuantity(request.size)! < smallest) {
    throw fieldProblem(["size"], `size must be at least ${capacity}, the size of claim ${name} it copies`, "volume.smaller-than-source");
  }

  const [pods, sandboxes, movers] = await Promise.all([deps.volumes.listPods(namespace), deps.volumes.listSandboxes(namespace), deps.pods.list(moverSelector(deps.labelPrefix), namespace)]);
  const keys = volumeMoverKeys(deps.labelPrefix);
  const running = movers.find((pod) => pod.metadata?.annotations?.[keys.source] === name && !pod.metadata.deletionTimestamp && isMoveUnderWay({ phase: phaseOf(pod) }));
  if (running) throw new VolumeStateError(`Claim ${namespace}/${name} is already being moved into ${running.metadata?.annotations?.[keys.target]} by pod ${running.metadata?.name}: wait for that copy to end.`);
  // Berth's own readers mount it read-only and change nothing; anything else may be writing.
  const users = claimUsers(claim, volume, pods.filter((pod) => pod.metadata?.labels?.[keys.helper] !== VOLUME_READER_HELPER), sandboxes);
  if (users.length > 0) {
    throw new VolumeStateError(`Claim ${namespace}/${name} is in use by ${users.join(", ")}: a copy of a workspace being written would not be whole. Stop or delete those first (a retained claim stays), then move it.`);
  }

  const startedAt = nowOf(deps);
  let created;
  try {
    const manifest = renderStandaloneClaim({ name: target, namespace, storageClassName: storageClass.name, size, accessModes: ["ReadWriteOnce"], retain: true }, deps.labelPrefix);
    created = await deps.volumes.createClaim(markAsBeingFilled(manifest, name, startedAt, deps.labelPrefix));
  } catch (error) {
    if (error instanceof KubeApiError && error.alreadyExists) throw new VolumeConflictError(`namespace ${namespace} already has a claim named ${target}: choose another name`, ["name"]);
    throw error;
  }
  const targetUid = created.metadata!.uid!;
  let pod: V1Pod;
  try {
    pod = await deps.pods.create(renderVolumeMoverPod({ namespace, source: name, target, targetUid, storageClassName: storageClass.name, image: deps.image, startedBy: actor.username, now: startedAt }, deps.labelPrefix));
  } catch (error) {
    // Nothing is left half-made: the new claim goes with the pod that could not be made.
    await deps.volumes.deleteClaim(namespace, target, targetUid).catch(() => undefined);
    throw error;
  }
  const move = moveOfPod(pod, deps.labelPrefix);
  await deps.audit.recordChange({ actor, action: MOVE_START, targetKind: "PersistentVolumeClaim", targetId: `${namespace}/${name}`, outcome: "Succeeded", details: { target, storageClassName: storageClass.name, size, pod: move.pod } });
  return move;
}

/** The claim's moves, newest first: those under way or ended but not yet recorded (from their pods, with the bytes copied so far), then the last few recorded. */
export async function listVolumeMoves(deps: VolumeMoveDeps, namespace: string, name: string): Promise<VolumeMove[]> {
  const known = await deps.known();
  if (!known.some((one) => one.namespace === namespace && one.name === name)) throw new VolumeNotFoundError(namespace, name);
  const keys = volumeMoverKeys(deps.labelPrefix);
  const [movers, finished] = await Promise.all([
    deps.pods.list(moverSelector(deps.labelPrefix), namespace),
    deps.audit.listChanges({ limit: FINISHED_SHOWN, targetKind: "PersistentVolumeClaim", targetId: `${namespace}/${name}`, action: MOVE_FINISH }),
  ]);
  const live = movers.filter((pod) => pod.metadata?.annotations?.[keys.source] === name).map((pod) => moveOfPod(pod, deps.labelPrefix));
  const measured = await withCopiedBytes(deps, known, live);
  const livePods = new Set(live.map((move) => move.pod));
  const recorded = finished.items.map(moveOfRecord).filter((move): move is VolumeMove => move !== null && !livePods.has(move.pod));
  return [...measured.sort((a, b) => b.startedAt.localeCompare(a.startedAt)), ...recorded];
}

/** The bytes in each new claim and in its old one, as their kubelet last measured them. */
async function withCopiedBytes(deps: VolumeMoveDeps, known: Volume[], moves: VolumeMove[]): Promise<VolumeMove[]> {
  if (moves.length === 0) return moves;
  const namespace = moves[0]!.namespace;
  const names = new Set(moves.flatMap((move) => [move.source, move.target]));
  const measured = await deps.withUsage(known.filter((one) => one.namespace === namespace && names.has(one.name)));
  const used = new Map(measured.map((one) => [one.name, one.usedBytes ?? null]));
  return moves.map((move) => ({ ...move, copiedBytes: used.get(move.target) ?? null, totalBytes: used.get(move.source) ?? null }));
}

function phaseOf(pod: V1Pod): VolumeMovePhase {
  switch (pod.status?.phase) {
    case "Succeeded":
      return "Succeeded";
    case "Failed":
      return "Failed";
    case "Running":
      return "Copying";
    default:
      return "Starting";
  }
}

function moveOfPod(pod: V1Pod, labelPrefix: string): VolumeMove {
  const keys = volumeMoverKeys(labelPrefix);
  const annotations = pod.metadata?.annotations ?? {};
  const terminated = pod.status?.containerStatuses?.find((status) => status.name === VOLUME_MOVER_CONTAINER)?.state?.terminated;
  const phase = phaseOf(pod);
  return {
    namespace: pod.metadata!.namespace!,
    source: annotations[keys.source] ?? "",
    target: annotations[keys.target] ?? "",
    storageClassName: annotations[keys.storageClass] ?? "",
    pod: pod.metadata!.name!,
    phase,
    startedBy: annotations[keys.startedBy] ?? "",
    startedAt: new Date(pod.metadata?.creationTimestamp ?? 0).toISOString(),
    finishedAt: terminated?.finishedAt ? new Date(terminated.finishedAt).toISOString() : null,
    copiedBytes: null,
    totalBytes: null,
    message: messageOf(pod, phase),
  };
}

function messageOf(pod: V1Pod, phase: VolumeMovePhase): string | null {
  if (phase === "Failed") {
    const terminated = pod.status?.containerStatuses?.find((status) => status.name === VOLUME_MOVER_CONTAINER)?.state?.terminated;
    const said = terminated?.message?.trim() || pod.status?.message || pod.status?.reason;
    return `the copy stopped${terminated ? ` (exit ${terminated.exitCode})` : ""}${said ? `: ${said}` : ""}`;
  }
  if (phase === "Starting") {
    const unscheduled = pod.status?.conditions?.find((condition) => condition.type === "PodScheduled" && condition.status === "False");
    if (unscheduled?.message) return `waiting to be scheduled: ${unscheduled.message}`;
    const waiting = pod.status?.containerStatuses?.find((status) => status.state?.waiting)?.state?.waiting;
    if (waiting?.reason) return `${waiting.reason}${waiting.message ? `: ${waiting.message}` : ""}`;
  }
  return null;
}

function moveOfRecord(entry: AuditEntry): VolumeMove | null {
  const details = entry.details as Partial<Record<keyof VolumeMove, unknown>>;
  const [namespace, source] = entry.targetId.split("/", 2);
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  const bytes = (value: unknown) => (typeof value === "number" ? value : null);
  const phase = details.phase === "Succeeded" || details.phase === "Failed" ? details.phase : null;
  if (!namespace || !source || !phase) return null;
  return {
    namespace,
    source,
    target: text(details.target) ?? "",
    storageClassName: text(details.storageClassName) ?? "",
    pod: text(details.pod),
    phase,
    startedBy: text(details.startedBy) ?? "",
    startedAt: text(details.startedAt) ?? new Date(entry.at).toISOString(),
    finishedAt: text(details.finishedAt) ?? new Date(entry.at).toISOString(),
    copiedBytes: bytes(details.copiedBytes),
    totalBytes: bytes(details.totalBytes),
    message: text(details.message),
  };
}

export interface VolumeMoverSweepDeps {
  /** As Berth itself. */
  pods: HelperPods;
  volumes: Pick<VolumeResources, "deleteClaim" | "listLabelledClaims" | "removeClaimLabel">;
  audit: Pick<Store["audit"], "recordChange">;
  labelPrefix: string;
  now: () => Date;
}

/** A marked claim younger than this may still be waiting for the pod its move is making. */
const ORPHAN_GRACE_MS = 2 * 60_000;

/**
 * The reconciler's part, level-triggered on what the cluster holds: each mover that has ended,
 * or run past its deadline, is recorded in its claim's history; the new claim of a copy that
 * succeeded loses its being-filled mark, that of one that did not is deleted (by uid: a claim
 * made since under that name is left alone); then the pod goes. A marked claim whose helper is
 * gone (deleted, or lost with its node, before it ended) is a copy that cannot finish: recorded
 * and deleted too. The record comes first: a sweep stopped half-way records the same end again
 * next time rather than none.
 */
export async function sweepVolumeMovers(deps: VolumeMoverSweepDeps): Promise<string[]> {
  const keys = volumeMoverKeys(deps.labelPrefix);
  const removed: string[] = [];
  const [pods, marked] = await Promise.all([deps.pods.list(moverSelector(deps.labelPrefix)), deps.volumes.listLabelledClaims(`${keys.copying}=true`)]);
  const now = deps.now();
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const move = moveOfPod(pod, deps.labelPrefix);
    const expiresAt = Date.parse(pod.metadata?.annotations?.[keys.expiresAt] ?? "");
    const overdue = isMoveUnderWay(move) && !(expiresAt > now.getTime());
    if (isMoveUnderWay(move) && !overdue) continue;
    const ended: VolumeMove = overdue ? { ...move, phase: "Failed", finishedAt: now.toISOString(), message: "the copy did not finish before its deadline" } : move;
    const targetUid = pod.metadata?.annotations?.[keys.targetUid] ?? "";
    await recordEnd(deps, ended);
    if (targetUid) {
      if (ended.phase === "Succeeded") await deps.volumes.removeClaimLabel(move.namespace, move.target, targetUid, keys.copying).catch(ignoreGoneOrReplaced);
      else await deps.volumes.deleteClaim(move.namespace, move.target, targetUid).catch(ignoreGoneOrReplaced);
    }
    await deps.pods.delete(move.namespace, move.pod!, pod.metadata!.uid!).catch(ignoreGoneOrReplaced);
    removed.push(`${move.namespace}/${move.pod}`);
  }
  const filling = new Set(pods.filter((pod) => !pod.metadata?.deletionTimestamp).map((pod) => `${pod.metadata?.namespace}/${pod.metadata?.annotations?.[keys.target]}`));
  for (const claim of marked) {
    const namespace = claim.metadata!.namespace!;
    const name = claim.metadata!.name!;
    const startedAt = Date.parse(claim.metadata?.annotations?.[keys.startedAt] ?? "");
    const young = now.getTime() - startedAt < ORPHAN_GRACE_MS;
    if (filling.has(`${namespace}/${name}`) || claim.metadata?.deletionTimestamp || young) continue;
    const source = claim.metadata?.annotations?.[keys.source] ?? "";
    await recordEnd(deps, {
      namespace, source, target: name, storageClassName: claim.spec?.storageClassName ?? "", pod: null, phase: "Failed", startedBy: "",
      startedAt: Number.isNaN(startedAt) ? now.toISOString() : new Date(startedAt).toISOString(),
      finishedAt: now.toISOString(), copiedBytes: null, totalBytes: null, message: "its helper pod was gone before the copy ended (deleted, or lost with its node)",
    });
    await deps.volumes.deleteClaim(namespace, name, claim.metadata!.uid!).catch(ignoreGoneOrReplaced);
    removed.push(`${namespace}/${name}`);
  }
  return removed;
}

function recordEnd(deps: VolumeMoverSweepDeps, ended: VolumeMove) {
  return deps.audit.recordChange({
    actor: BERTH_ACTOR,
    action: MOVE_FINISH,
    targetKind: "PersistentVolumeClaim",
    targetId: `${ended.namespace}/${ended.source}`,
    outcome: ended.phase === "Succeeded" ? "Succeeded" : "Failed",
    details: { ...ended, ...(ended.phase === "Failed" ? { message: `${ended.message ?? "the copy failed"}; the half-filled claim ${ended.target} was deleted` } : {}) },
  });
}

/** An object already gone, or replaced under the same name since it was read, is not the one to change. */
function ignoreGoneOrReplaced(error: unknown): void {
  if (error instanceof KubeApiError && (error.conflict || error.code === 404 || error.code === 422)) return;
  throw error;
}
