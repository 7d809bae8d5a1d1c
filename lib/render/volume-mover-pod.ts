import { VOLUME_MOVE_DEADLINE_SECONDS } from "../domain/volume-move.ts";
import { helperContainerSecurityContext, helperLabels, helperPodLifetime, type HelperContainerSecurityContext, type HelperPodLifetime } from "./helper-pod.ts";
import type { PersistentVolumeClaimManifest, PodSecurityContext } from "./manifests.ts";
import { podSecurityContext } from "./pod-security.ts";
import { volumeReaderKeys } from "./volume-reader-pod.ts";

// The helper pod that copies a workspace into a claim of another class: made as the person who
// asked, in the claims' namespace, the old claim mounted read-only at /from, the new one at /to.
// It passes the Pod Security Standard `restricted` level, has no service-account token and no
// writable root, and runs as the sandboxes' user; fsGroup makes the new volume writable for it
// (the kubelet leaves a read-only mount's ownership alone). It copies and ends: Succeeded is a
// whole copy. Berth's reconciler records the outcome, deletes the new claim of a failed copy,
// and deletes the pod; activeDeadlineSeconds and the expiry annotation bound a copy that hangs.
// Pure.

export const VOLUME_MOVER_CONTAINER = "copy";
export const VOLUME_MOVER_HELPER = "volume-mover";
export const MOVE_SOURCE_PATH = "/from";
export const MOVE_TARGET_PATH = "/to";

// Every entry at the top of the old claim, hidden ones too, copied with its modes and times;
// lost+found is the file system's (root's, unreadable to the copier) and the new claim has its
// own. A pattern that matches nothing stays as it is and fails the -e test, so it is skipped.
const COPY_SCRIPT = [
  `cd ${MOVE_SOURCE_PATH} || exit 1`,
  `for entry in * .*; do`,
  `  case "$entry" in .|..|lost+found) continue;; esac`,
  `  [ -e "$entry" ] || [ -L "$entry" ] || continue`,
  `  cp -a -- "$entry" ${MOVE_TARGET_PATH}/ || exit 1`,
  `done`,
].join("\n");

export const volumeMoverKeys = (labelPrefix: string) => {
  const reader = volumeReaderKeys(labelPrefix);
  return {
    helper: reader.helper,
    /** Annotations: the claim copied from (the reader's key: both helpers mount that claim), the one copied into, the new claim's uid, its class, until when, and for whom. */
    source: reader.claim,
    target: `${labelPrefix}/move-target`,
    targetUid: `${labelPrefix}/move-target-uid`,
    storageClass: `${labelPrefix}/move-storage-class`,
    expiresAt: reader.expiresAt,
    startedBy: reader.startedBy,
    /** Label on the new claim while its copy is under way: the sweep deletes one whose copy did not finish, even if its helper is gone. */
    copying: `${labelPrefix}/move-copying`,
    /** Annotation on the new claim: when Berth made it, by Berth's clock (the cluster's may differ). */
    startedAt: `${labelPrefix}/move-started-at`,
  };
};

/** The new claim, marked as being filled: the mark goes once the copy succeeded. */
export function markAsBeingFilled(claim: PersistentVolumeClaimManifest, source: string, now: Date, labelPrefix: string): PersistentVolumeClaimManifest {
  const keys = volumeMoverKeys(labelPrefix);
  const annotations = { ...claim.metadata.annotations, [keys.source]: source, [keys.startedAt]: now.toISOString() };
  return { ...claim, metadata: { ...claim.metadata, labels: { ...claim.metadata.labels, [keys.copying]: "true" }, annotations } };
}

export interface VolumeMoverPodManifest {
  apiVersion: "v1";
  kind: "Pod";
  metadata: { generateName: string; namespace: string; labels: Record<string, string>; annotations: Record<string, string> };
  spec: HelperPodLifetime & {
    securityContext: PodSecurityContext;
    containers: {
      name: string;
      image: string;
      command: string[];
      securityContext: HelperContainerSecurityContext;
      resources: { requests: { cpu: string; memory: string }; limits: { cpu: string; memory: string } };
      volumeMounts: { name: string; mountPath: string; readOnly: boolean }[];
    }[];
    volumes: { name: string; persistentVolumeClaim: { claimName: string; readOnly: boolean } }[];
  };
}

export interface VolumeMoverRequest {
  namespace: string;
  source: string;
  target: string;
  targetUid: string;
  storageClassName: string;
  image: string;
  startedBy: string;
  now: Date;
}

export function renderVolumeMoverPod(request: VolumeMoverRequest, labelPrefix: string): VolumeMoverPodManifest {
  const keys = volumeMoverKeys(labelPrefix);
  const expiresAt = new Date(request.now.getTime() + VOLUME_MOVE_DEADLINE_SECONDS * 1000);
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      generateName: "berth-move-",
      namespace: request.namespace,
      labels: helperLabels(labelPrefix, VOLUME_MOVER_HELPER),
      annotations: {
        [keys.source]: request.source,
        [keys.target]: request.target,
        [keys.targetUid]: request.targetUid,
        [keys.storageClass]: request.storageClassName,
        [keys.expiresAt]: expiresAt.toISOString(),
        [keys.startedBy]: request.startedBy,
      },
    },
    spec: {
      ...helperPodLifetime(VOLUME_MOVE_DEADLINE_SECONDS),
      securityContext: podSecurityContext(),
      containers: [
        {
          name: VOLUME_MOVER_CONTAINER,
          image: request.image,
          command: ["sh", "-c", COPY_SCRIPT],
          securityContext: helperContainerSecurityContext(),
          resources: { requests: { cpu: "50m", memory: "32Mi" }, limits: { cpu: "1", memory: "256Mi" } },
          volumeMounts: [
            { name: "from", mountPath: MOVE_SOURCE_PATH, readOnly: true },
            { name: "to", mountPath: MOVE_TARGET_PATH, readOnly: false },
          ],
        },
      ],
      volumes: [
        { name: "from", persistentVolumeClaim: { claimName: request.source, readOnly: true } },
        { name: "to", persistentVolumeClaim: { claimName: request.target, readOnly: false } },
      ],
    },
  };
}
