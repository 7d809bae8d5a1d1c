import type { StorageClassView } from "../domain/storage-class.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { storageClassResources } from "../kube/storage-class-resources.ts";
import { describeStorageClasses } from "./describe-storage-classes.ts";

/**
 * The cluster's storage classes, read fresh: they change rarely and are asked for only when
 * someone is about to choose one, so they are not worth a watch.
 */
export async function listStorageClassViews(connection: ClusterConnection): Promise<StorageClassView[]> {
  const resources = storageClassResources(connection);
  const [classes, snapshotClasses, persistentVolumes] = await Promise.all([resources.listStorageClasses(), resources.listSnapshotClasses(), resources.listPersistentVolumes()]);
  return describeStorageClasses({ classes, snapshotClasses, persistentVolumes });
}
