import { list, record, timestamp } from "../k8s-objects.ts";
import type { StoredObject } from "../objects.ts";
import type { VolumeData } from "../filesystem/index.ts";

// The kubelet's Summary API (GET /stats/summary, reached through the API server as
// nodes/{node}/proxy/stats/summary), cut down to what it says about volumes: per running pod,
// each mounted volume's used, free and total bytes and inodes, with the claim it comes from
// (`pvcRef`). Used space is counted the way a file system with 4 KiB blocks counts it: every
// file and directory takes whole blocks, so an empty volume is not quite empty.

const BLOCK_BYTES = 4096;
/** ext4's default bytes-per-inode ratio: how many inodes a volume of some size has. */
const BYTES_PER_INODE = 16_384;

export interface MountedVolume {
  /** The volume's name in the pod's spec. */
  name: string;
  data: VolumeData;
  capacityBytes: number;
  /** The claim it is mounted from; absent for an emptyDir. */
  claimName?: string;
}

export interface RunningPod {
  pod: StoredObject;
  volumes: MountedVolume[];
}

function blocksOf(data: VolumeData): { usedBytes: number; inodesUsed: number } {
  let usedBytes = 0;
  let inodesUsed = 0;
  data.walk((node) => {
    inodesUsed += 1;
    usedBytes += node.kind === "file" ? Math.max(1, Math.ceil(Buffer.byteLength(node.content) / BLOCK_BYTES)) * BLOCK_BYTES : BLOCK_BYTES;
  });
  return { usedBytes, inodesUsed };
}

function volumeStats(pod: StoredObject, volume: MountedVolume, time: string) {
  const { usedBytes, inodesUsed } = blocksOf(volume.data);
  const inodes = Math.max(inodesUsed, Math.floor(volume.capacityBytes / BYTES_PER_INODE));
  return {
    time,
    availableBytes: Math.max(0, volume.capacityBytes - usedBytes),
    capacityBytes: volume.capacityBytes,
    usedBytes,
    inodesFree: inodes - inodesUsed,
    inodes,
    inodesUsed,
    name: volume.name,
    ...(volume.claimName ? { pvcRef: { name: volume.claimName, namespace: pod.metadata.namespace } } : {}),
  };
}

/** The node's summary, as of `now`. */
export function statsSummary(nodeName: string, pods: RunningPod[], now: Date) {
  const time = timestamp(now);
  return {
    node: { nodeName, startTime: time },
    pods: pods.map(({ pod, volumes }) => ({
      podRef: { name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid },
      startTime: record(pod.status).startTime ?? time,
      containers: list(record(pod.spec).containers).map((container) => ({ name: container.name, startTime: record(pod.status).startTime ?? time })),
      volume: volumes.map((volume) => volumeStats(pod, volume, time)),
    })),
  };
}
