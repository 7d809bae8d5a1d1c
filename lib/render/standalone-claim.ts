import { berthLabelKeys, MANAGED_BY_BERTH } from "../domain/labels.ts";
import type { VolumeCreation } from "../domain/volume-actions.ts";
import { storageClassChoice } from "../domain/workspace.ts";
import { claimSpec } from "./claims.ts";
import type { PersistentVolumeClaimManifest } from "./manifests.ts";

// A claim made on the Volumes page, for no sandbox yet. Labelled as Berth's, so it is listed,
// with the ownership a sandbox will find it under: `retain` (Berth's, taken up as a sandbox's
// retained workspace and kept after it) or `existing` (the person's own, mounted as it is, never
// deleted by Berth). Pure: the same input gives the same bytes.

const SNAPSHOT_API_GROUP = "snapshot.storage.k8s.io";

export function renderStandaloneClaim(request: VolumeCreation & { namespace: string }, labelPrefix: string): PersistentVolumeClaimManifest {
  const keys = berthLabelKeys(labelPrefix);
  const { dataSource } = request;
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: {
      name: request.name,
      namespace: request.namespace,
      labels: { [keys.managedBy]: MANAGED_BY_BERTH, [keys.claimOwnership]: request.retain ? "retain" : "existing" },
    },
    spec: {
      ...claimSpec(request.size, request.accessModes, storageClassChoice(request.storageClassName)),
      ...(dataSource ? { dataSource: { ...(dataSource.kind === "VolumeSnapshot" ? { apiGroup: SNAPSHOT_API_GROUP } : {}), kind: dataSource.kind, name: dataSource.name } } : {}),
    },
  };
}
