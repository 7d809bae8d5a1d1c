import { helperContainerSecurityContext, helperLabelKey, helperLabels, helperPodLifetime, type HelperContainerSecurityContext, type HelperPodLifetime } from "./helper-pod.ts";
import type { PodSecurityContext } from "./manifests.ts";
import { SANDBOX_USER_ID } from "./pod-security.ts";

// The short-lived pod that reads a claim no running pod mounts: made as the person who asked,
// in the claim's namespace, mounting the claim read-only. It passes the Pod Security Standard
// `restricted` level, has no service-account token and no writable root, and runs as the
// sandboxes' user so it reads what they wrote. It ends by itself (activeDeadlineSeconds) and
// Berth's reconciler deletes it once its annotation says it has expired, so a Berth that stops
// half-way leaves none behind. Pure.

export const VOLUME_READER_CONTAINER = "reader";
export const VOLUME_READER_MOUNT_PATH = "/volume";
/** How long one helper serves a person's browsing before another is started. */
export const VOLUME_READER_LIFETIME_SECONDS = 300;

export const volumeReaderKeys = (labelPrefix: string) => ({
  /** Label: what kind of helper this is; every helper pod Berth makes carries it. */
  helper: helperLabelKey(labelPrefix),
  /** Annotations: the claim it reads (names outgrow label values), until when, and for whom. */
  claim: `${labelPrefix}/claim`,
  expiresAt: `${labelPrefix}/expires-at`,
  startedBy: `${labelPrefix}/started-by`,
});

export const VOLUME_READER_HELPER = "volume-reader";

export interface VolumeReaderPodManifest {
  apiVersion: "v1";
  kind: "Pod";
  metadata: { generateName: string; namespace: string; labels: Record<string, string>; annotations: Record<string, string> };
  spec: HelperPodLifetime & {
    securityContext: Omit<PodSecurityContext, "fsGroup" | "fsGroupChangePolicy">;
    containers: {
      name: string;
      image: string;
      command: string[];
      securityContext: HelperContainerSecurityContext;
      resources: { requests: { cpu: string; memory: string }; limits: { cpu: string; memory: string } };
      volumeMounts: { name: string; mountPath: string; readOnly: true }[];
    }[];
    volumes: { name: string; persistentVolumeClaim: { claimName: string; readOnly: true } }[];
  };
}

export interface VolumeReaderRequest {
  namespace: string;
  claim: string;
  image: string;
  startedBy: string;
  now: Date;
}

export function renderVolumeReaderPod(request: VolumeReaderRequest, labelPrefix: string): VolumeReaderPodManifest {
  const keys = volumeReaderKeys(labelPrefix);
  const expiresAt = new Date(request.now.getTime() + VOLUME_READER_LIFETIME_SECONDS * 1000);
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      generateName: "berth-files-",
      namespace: request.namespace,
      labels: helperLabels(labelPrefix, VOLUME_READER_HELPER),
      annotations: { [keys.claim]: request.claim, [keys.expiresAt]: expiresAt.toISOString(), [keys.startedBy]: request.startedBy },
    },
    spec: {
      ...helperPodLifetime(VOLUME_READER_LIFETIME_SECONDS),
      // No fsGroup: that would have the kubelet change the ownership of what it only reads.
      securityContext: { runAsNonRoot: true, runAsUser: SANDBOX_USER_ID, runAsGroup: SANDBOX_USER_ID, seccompProfile: { type: "RuntimeDefault" } },
      containers: [
        {
          name: VOLUME_READER_CONTAINER,
          image: request.image,
          command: ["sleep", String(VOLUME_READER_LIFETIME_SECONDS)],
          securityContext: helperContainerSecurityContext(),
          resources: { requests: { cpu: "10m", memory: "16Mi" }, limits: { cpu: "200m", memory: "64Mi" } },
          volumeMounts: [{ name: "volume", mountPath: VOLUME_READER_MOUNT_PATH, readOnly: true }],
        },
      ],
      volumes: [{ name: "volume", persistentVolumeClaim: { claimName: request.claim, readOnly: true } }],
    },
  };
}
