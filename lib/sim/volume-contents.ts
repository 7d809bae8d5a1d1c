import { imageRootFor, VolumeData, type VolumeDataJson } from "./filesystem/index.ts";

// What is written on the simulated disks: one VolumeData per PersistentVolume (it outlives
// every pod that mounts it), per emptyDir of a pod (it dies with that pod), and per
// VolumeSnapshot (a copy taken at snapshot time, restored into new volumes).

export interface VolumeContentsSnapshot {
  volumes: Record<string, VolumeDataJson>;
  emptyDirs: Record<string, VolumeDataJson>;
  snapshots: Record<string, VolumeDataJson>;
  containerRoots: Record<string, VolumeDataJson>;
}

export class VolumeContents {
  private readonly volumes = new Map<string, VolumeData>();
  private readonly emptyDirs = new Map<string, VolumeData>();
  private readonly snapshots = new Map<string, VolumeData>();
  /** Each container's writable copy of its image: /tmp and everything outside volumes. */
  private readonly containerRoots = new Map<string, VolumeData>();

  /** The contents of a PersistentVolume, created empty on first use. */
  persistentVolume(name: string): VolumeData {
    let data = this.volumes.get(name);
    if (!data) this.volumes.set(name, (data = VolumeData.empty()));
    return data;
  }

  hasPersistentVolume(name: string): boolean {
    return this.volumes.has(name);
  }

  /** A reclaimed volume's data is gone for good. */
  deletePersistentVolume(name: string): void {
    this.volumes.delete(name);
  }

  /** Copies a volume's data now, as a CSI snapshot would. */
  takeSnapshot(snapshotUid: string, volumeName: string): void {
    this.snapshots.set(snapshotUid, this.persistentVolume(volumeName).clone());
  }

  hasSnapshot(snapshotUid: string): boolean {
    return this.snapshots.has(snapshotUid);
  }

  deleteSnapshot(snapshotUid: string): void {
    this.snapshots.delete(snapshotUid);
  }

  /** Fills a new volume with a snapshot's data (a claim with a VolumeSnapshot dataSource). */
  restoreSnapshot(snapshotUid: string, volumeName: string): void {
    const data = this.snapshots.get(snapshotUid);
    if (!data) throw new Error(`no data for snapshot ${snapshotUid}`);
    this.volumes.set(volumeName, data.clone());
  }

  /** Fills a new volume with another volume's data (a claim with a PersistentVolumeClaim dataSource). */
  cloneVolume(fromVolume: string, toVolume: string): void {
    this.volumes.set(toVolume, this.persistentVolume(fromVolume).clone());
  }

  /** An emptyDir of one pod: empty when the pod first uses it. */
  emptyDir(podUid: string, volumeName: string): VolumeData {
    const key = `${podUid}/${volumeName}`;
    let data = this.emptyDirs.get(key);
    if (!data) this.emptyDirs.set(key, (data = VolumeData.empty()));
    return data;
  }

  /** A container's root file system: a fresh copy of its image for every new pod. */
  containerRoot(podUid: string, containerName: string, image: string): VolumeData {
    const key = `${podUid}/${containerName}`;
    let data = this.containerRoots.get(key);
    if (!data) this.containerRoots.set(key, (data = imageRootFor(image).clone()));
    return data;
  }

  /** The kubelet reclaims a pod's emptyDirs and container roots when the pod is gone. */
  dropPod(podUid: string): void {
    for (const map of [this.emptyDirs, this.containerRoots]) {
      for (const key of [...map.keys()]) if (key.startsWith(`${podUid}/`)) map.delete(key);
    }
  }

  /** What restore() takes, as JSON: each volume's JSON made again only when it changed. */
  snapshotJson(): string {
    const toJson = (map: Map<string, VolumeData>) => `{${[...map].map(([key, data]) => `${JSON.stringify(key)}:${data.toJSONText()}`).join(",")}}`;
    return `{"volumes":${toJson(this.volumes)},"emptyDirs":${toJson(this.emptyDirs)},"snapshots":${toJson(this.snapshots)},"containerRoots":${toJson(this.containerRoots)}}`;
  }

  restore(snapshot: VolumeContentsSnapshot): void {
    const load = (map: Map<string, VolumeData>, entries: Record<string, VolumeDataJson>) => {
      map.clear();
      for (const [key, json] of Object.entries(entries)) map.set(key, VolumeData.fromJSON(json));
    };
    load(this.volumes, snapshot.volumes);
    load(this.emptyDirs, snapshot.emptyDirs);
    load(this.snapshots, snapshot.snapshots);
    load(this.containerRoots, snapshot.containerRoots ?? {});
  }
}
