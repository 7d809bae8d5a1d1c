import type { V1Pod } from "@kubernetes/client-node";
import { BERTH_ACTOR, type Actor } from "../domain/audit.ts";
import type { Volume } from "../domain/volume.ts";
import { listCommand, MAX_DOWNLOAD_BYTES, MAX_LISTED_ENTRIES, parseListing, readCommand, READER_EXIT, type VolumeDirectory, type VolumeReader } from "../domain/volume-files.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { KubeApiError } from "../kube/kube-errors.ts";
import { ExecOutputTooLargeError, execInPodForBytes, type ExecBytesResult } from "../kube/pod-exec.ts";
import { helperPods, type HelperPods } from "../kube/helper-pods.ts";
import { renderVolumeReaderPod, VOLUME_READER_CONTAINER, VOLUME_READER_HELPER, VOLUME_READER_LIFETIME_SECONDS, VOLUME_READER_MOUNT_PATH, volumeReaderKeys } from "../render/volume-reader-pod.ts";
import { berthLabelKeys, MANAGED_BY_BERTH } from "../domain/labels.ts";
import type { Store } from "../store/index.ts";
import { VolumeFileError, VolumeNotFoundError } from "./lifecycle-errors.ts";

// Reading inside a claim, as the person: through the pod that mounts it (exec into the
// container that has it), or — for a claim no running pod mounts — through a helper pod Berth
// starts for them in the claim's namespace (lib/render/volume-reader-pod.ts), reused while it has
// time left and deleted by the reconciler once it expires (sweepVolumeReaders). Each helper's
// start and end is in the audit log against the claim: the claim's history.

export interface VolumeFilesDeps {
  /** Acts as the person: the API server decides whether they may exec, and make a helper. */
  connection: ClusterConnection;
  /** The claims Berth knows, with the pod that mounts each. */
  volumes: () => Promise<Volume[]>;
  audit: Pick<Store["audit"], "recordChange">;
  labelPrefix: string;
  image: string;
  now?: () => Date;
  /** How long a new helper may take to run before Berth gives up on it. */
  startTimeoutMs?: number;
  pollMs?: number;
}

/** A helper with less time left than this is not given more work: a new one is started. */
const MIN_HELPER_TIME_LEFT_MS = 30_000;
const EXEC_TIMEOUT_SECONDS = 30;
/** What one listing may write: the most entries, each a header and a name of at most 255 bytes. */
const MAX_LISTING_BYTES = MAX_LISTED_ENTRIES * 320 + 16;

interface ReachedClaim {
  target: { namespace: string; pod: string; container: string };
  mountPath: string;
  reader: VolumeReader;
}

/** Helpers being started in this process, by claim: requests at the same moment share one. */
const starting = new Map<string, Promise<ReachedClaim>>();

const nowOf = (deps: VolumeFilesDeps) => (deps.now ?? (() => new Date()))();

/**
 * A reader for the claim: the pod that mounts it, a helper with time left, or a new helper made
 * as the person. Its own request (a POST), so that no GET — which a page of another site can make
 * a browser send — ever starts a pod.
 */
export async function startVolumeReader(deps: VolumeFilesDeps, namespace: string, claim: string, actor: Actor): Promise<{ reader: VolumeReader; started: boolean }> {
  const existing = await existingReader(deps, namespace, claim);
  if (existing) return { reader: existing.reader, started: false };
  const key = `${namespace}/${claim}`;
  const pending = starting.get(key) ?? startHelper(deps, namespace, claim, actor).finally(() => starting.delete(key));
  starting.set(key, pending);
  return { reader: (await pending).reader, started: true };
}

export async function listVolumeFiles(deps: VolumeFilesDeps, namespace: string, claim: string, path: string): Promise<VolumeDirectory> {
  const reached = await readerOf(deps, namespace, claim);
  const result = await run(deps, reached, listCommand(reached.mountPath, path), MAX_LISTING_BYTES, path);
  if (result.exitCode === READER_EXIT.wrongKind) throw new VolumeFileError(400, "not-a-directory", `${path} in claim ${namespace}/${claim} is not a directory: download it instead (…/files/content?path=).`, true);
  failUnlessDone(result, reached, namespace, claim, path);
  const { entries, truncated } = parseListing(result.stdout, path);
  return { namespace, claim, path, reader: reached.reader, entries, truncated };
}

export async function readVolumeFile(deps: VolumeFilesDeps, namespace: string, claim: string, path: string): Promise<{ content: Buffer; reader: VolumeReader }> {
  const reached = await readerOf(deps, namespace, claim);
  const result = await run(deps, reached, readCommand(reached.mountPath, path), MAX_DOWNLOAD_BYTES, path);
  if (result.exitCode === READER_EXIT.wrongKind) throw new VolumeFileError(400, "not-a-file", `${path} in claim ${namespace}/${claim} is not a regular file: list it instead (…/files?path=).`, true);
  if (result.exitCode === READER_EXIT.tooLarge) throw tooLarge(path, Number(result.stderr.trim()));
  failUnlessDone(result, reached, namespace, claim, path);
  return { content: result.stdout, reader: reached.reader };
}

const tooLarge = (path: string, size: number | null) =>
  new VolumeFileError(413, "file-too-large", `${path} is ${size && Number.isFinite(size) ? `${size} bytes` : "larger than the limit"}; Berth hands out files of at most ${MAX_DOWNLOAD_BYTES} bytes. Copy it with kubectl cp from a pod that mounts the claim.`, true);

async function run(deps: VolumeFilesDeps, reached: ReachedClaim, command: string[], maxStdoutBytes: number, path: string): Promise<ExecBytesResult> {
  try {
    return await execInPodForBytes(deps.connection, reached.target, command, { timeoutSeconds: EXEC_TIMEOUT_SECONDS, maxStdoutBytes });
  } catch (error) {
    // The file grew past the limit between its size being read and it being written out.
    if (error instanceof ExecOutputTooLargeError) throw tooLarge(path, null);
    throw error;
  }
}

function failUnlessDone(result: ExecBytesResult, reached: ReachedClaim, namespace: string, claim: string, path: string): void {
  const where = `${path} in claim ${namespace}/${claim}`;
  switch (result.exitCode) {
    case 0:
      return;
    case READER_EXIT.symlink:
      throw new VolumeFileError(400, "path-through-link", `${where} goes through a symbolic link: Berth does not follow links, which can lead out of the claim.`, true);
    case READER_EXIT.missing:
      throw new VolumeFileError(404, "path-not-found", `${where} does not exist (it may have just been removed): list its parent directory to see what is there.`, true);
    case READER_EXIT.denied:
      throw new VolumeFileError(403, "path-not-readable", `${where} cannot be read by the user pod ${reached.target.pod} runs as (its file permissions refuse it).`, true);
    default:
      throw new VolumeFileError(502, "reader-failed", `Reading ${where} in pod ${reached.target.pod} failed (exit ${result.exitCode}): ${result.stderr.trim() || "no message"}. The image needs sh, stat and cat.`);
  }
}

async function readerOf(deps: VolumeFilesDeps, namespace: string, claim: string): Promise<ReachedClaim> {
  const existing = await existingReader(deps, namespace, claim);
  if (existing) return existing;
  throw new VolumeFileError(409, "reader-needed", `No running pod mounts claim ${namespace}/${claim}: POST /api/v1/volumes/${namespace}/${claim}/files/reader to start a helper pod that reads it, as you, for ${VOLUME_READER_LIFETIME_SECONDS / 60} minutes.`);
}

/** Where the claim's files can be read now: the pod that mounts it, or a helper with time left; null when neither is there. */
async function existingReader(deps: VolumeFilesDeps, namespace: string, claim: string): Promise<ReachedClaim | null> {
  const volume = (await deps.volumes()).find((one) => one.namespace === namespace && one.name === claim);
  if (!volume) throw new VolumeNotFoundError(namespace, claim);
  if (volume.attachedTo) {
    const mounting = await mountingContainer(deps, namespace, volume.attachedTo.pod, claim);
    if (mounting) return mounting;
  }
  const keys = volumeReaderKeys(deps.labelPrefix);
  const helper = (await helperPods(deps.connection).list(helperSelector(deps.labelPrefix), namespace)).find(
    (pod) => pod.metadata?.annotations?.[keys.claim] === claim && isRunning(pod) && !pod.metadata.deletionTimestamp && timeLeftMs(pod, keys.expiresAt, nowOf(deps)) > MIN_HELPER_TIME_LEFT_MS,
  );
  return helper ? helperReader(helper, deps.labelPrefix) : null;
}

const isRunning = (pod: V1Pod) => pod.status?.phase === "Running" && (pod.status.containerStatuses?.some((status) => status.state?.running) ?? false);

function helperReader(pod: V1Pod, labelPrefix: string): ReachedClaim {
  return {
    target: { namespace: pod.metadata!.namespace!, pod: pod.metadata!.name!, container: VOLUME_READER_CONTAINER },
    mountPath: VOLUME_READER_MOUNT_PATH,
    reader: { kind: "helper-pod", pod: pod.metadata!.name!, expiresAt: pod.metadata!.annotations![volumeReaderKeys(labelPrefix).expiresAt]! },
  };
}

/** The running container of the pod that mounts the claim, and where; null when it is not running (a helper reads it then). */
async function mountingContainer(deps: VolumeFilesDeps, namespace: string, podName: string, claim: string): Promise<ReachedClaim | null> {
  const pod = await helperPods(deps.connection).read(namespace, podName);
  if (!pod || pod.status?.phase !== "Running" || pod.metadata?.deletionTimestamp) return null;
  const volumeName = pod.spec?.volumes?.find((one) => one.persistentVolumeClaim?.claimName === claim)?.name;
  const running = new Set(pod.status?.containerStatuses?.filter((status) => status.state?.running).map((status) => status.name));
  for (const container of pod.spec?.containers ?? []) {
    const mount = container.volumeMounts?.find((one) => one.name === volumeName);
    if (!mount || !running.has(container.name)) continue;
    return {
      target: { namespace, pod: podName, container: container.name },
      mountPath: mount.mountPath,
      reader: { kind: "mounting-pod", pod: podName, container: container.name, mountPath: mount.mountPath, subPath: mount.subPath ?? null },
    };
  }
  return null;
}

async function startHelper(deps: VolumeFilesDeps, namespace: string, claim: string, actor: Actor): Promise<ReachedClaim> {
  const pods = helperPods(deps.connection);
  const manifest = renderVolumeReaderPod({ namespace, claim, image: deps.image, startedBy: actor.username, now: nowOf(deps) }, deps.labelPrefix);
  const created = await pods.create(manifest);
  const name = created.metadata!.name!;
  await deps.audit.recordChange({ actor, action: "volume.reader-start", targetKind: "PersistentVolumeClaim", targetId: `${namespace}/${claim}`, outcome: "Succeeded", details: { pod: name, image: deps.image, expiresAt: manifest.metadata.annotations[volumeReaderKeys(deps.labelPrefix).expiresAt] } });
  const deadline = Date.now() + (deps.startTimeoutMs ?? 60_000);
  let last: V1Pod | null = created;
  for (;;) {
    const stuck = whyNotStarting(last);
    if (last && isRunning(last)) return helperReader(last, deps.labelPrefix);
    if (stuck || !last || Date.now() >= deadline) {
      const why = stuck ?? (last ? `it is still ${last.status?.phase ?? "Pending"}${pendingReason(last)} after ${Math.round((deps.startTimeoutMs ?? 60_000) / 1000)} s` : "it was deleted while starting");
      // Gone now rather than at its expiry; if even that fails, the reconciler's sweep removes it.
      if (last) await pods.delete(namespace, name, last.metadata!.uid!).catch(() => undefined);
      await deps.audit.recordChange({ actor, action: "volume.reader-remove", targetKind: "PersistentVolumeClaim", targetId: `${namespace}/${claim}`, outcome: "Succeeded", details: { pod: name, why: `did not start: ${why}` } });
      throw new VolumeFileError(504, "reader-not-started", `The helper pod ${name} that would read claim ${namespace}/${claim} did not start: ${why}. It was deleted; try again, or start a sandbox on the claim.`);
    }
    await new Promise((resolve) => setTimeout(resolve, deps.pollMs ?? 250));
    last = await pods.read(namespace, name);
  }
}

const STUCK_WAITING = new Set(["ErrImagePull", "ImagePullBackOff", "InvalidImageName", "CreateContainerConfigError", "CreateContainerError"]);

/** Why the helper will not run, when it never will: it ended, or its image cannot be had. */
function whyNotStarting(pod: V1Pod | null): string | null {
  if (!pod) return null;
  if (pod.status?.phase === "Failed" || pod.status?.phase === "Succeeded") return `it ended ${pod.status.phase}${pod.status.reason ? ` (${pod.status.reason})` : ""}`;
  const waiting = pod.status?.containerStatuses?.find((status) => status.state?.waiting && STUCK_WAITING.has(status.state.waiting.reason ?? ""))?.state?.waiting;
  return waiting ? `${waiting.reason}: ${waiting.message ?? "its image cannot be pulled"}` : null;
}

function pendingReason(pod: V1Pod): string {
  const unscheduled = pod.status?.conditions?.find((condition) => condition.type === "PodScheduled" && condition.status === "False");
  return unscheduled?.message ? ` (${unscheduled.message})` : "";
}

function timeLeftMs(pod: V1Pod, annotation: string, now: Date): number {
  const expiresAt = Date.parse(pod.metadata?.annotations?.[annotation] ?? "");
  return Number.isNaN(expiresAt) ? 0 : expiresAt - now.getTime();
}

const helperSelector = (labelPrefix: string) => `${berthLabelKeys(labelPrefix).managedBy}=${MANAGED_BY_BERTH},${volumeReaderKeys(labelPrefix).helper}=${VOLUME_READER_HELPER}`;

export interface VolumeReaderSweepDeps {
  /** As Berth itself. */
  pods: HelperPods;
  audit: Pick<Store["audit"], "recordChange">;
  labelPrefix: string;
  now: () => Date;
}

/**
 * The reconciler's part: every helper whose time is up, or that has ended, is deleted and the
 * claim's history says so. Level-triggered: whatever left it behind (a Berth that stopped
 * half-way, a start that failed to clean up), the next sweep finds it by its label.
 */
export async function sweepVolumeReaders(deps: VolumeReaderSweepDeps): Promise<string[]> {
  const keys = volumeReaderKeys(deps.labelPrefix);
  const removed: string[] = [];
  for (const pod of await deps.pods.list(helperSelector(deps.labelPrefix))) {
    if (pod.metadata?.deletionTimestamp) continue;
    const ended = pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
    const expired = timeLeftMs(pod, keys.expiresAt, deps.now()) <= 0;
    if (!ended && !expired) continue;
    const namespace = pod.metadata!.namespace!;
    const name = pod.metadata!.name!;
    try {
      await deps.pods.delete(namespace, name, pod.metadata!.uid!);
    } catch (error) {
      // Replaced by a pod of the same name since it was listed: that one is looked at next time.
      if (error instanceof KubeApiError && error.conflict) continue;
      throw error;
    }
    removed.push(`${namespace}/${name}`);
    const claim = pod.metadata?.annotations?.[keys.claim] ?? "";
    await deps.audit.recordChange({ actor: BERTH_ACTOR, action: "volume.reader-remove", targetKind: "PersistentVolumeClaim", targetId: `${namespace}/${claim}`, outcome: "Succeeded", details: { pod: name, why: ended ? `it ended ${pod.status?.phase}` : "its time was up" } });
  }
  return removed;
}
