import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { KUBERNETES_RESOURCES } from "../domain/access.ts";
import type { CleanUp } from "../domain/clean-up.ts";
import type { Person } from "../domain/person.ts";
import { findLeftovers } from "../sandboxes/clean-up.ts";
import { namespacesWithVisibleClaims } from "./visibility.ts";
import { snapshotResources } from "../kube/snapshot-resources.ts";
import { volumeResources } from "../kube/volume-resources.ts";
import { effectiveGatewayDefaults } from "../sandboxes/gateway-settings.ts";
import { listStorageClassViews } from "../sandboxes/storage-classes.ts";
import type { VolumeClassTraits } from "../domain/volume-actions.ts";
import type { ClaimUsage } from "../domain/volume-usage.ts";
import type { VolumeActionDeps, VolumeCreationDeps } from "../sandboxes/volume-actions.ts";
import type { SnapshotDeps } from "../sandboxes/volume-snapshots.ts";
import type { VolumeFilesDeps } from "../sandboxes/volume-files.ts";
import type { VolumeMoveDeps } from "../sandboxes/volume-move.ts";
import { helperPods } from "../kube/helper-pods.ts";
import { ClusterUnavailableError } from "./api-problems.ts";
import { managedNamespaces, namespaceChoices } from "./managed-namespaces.ts";
import type { Runtime } from "./runtime.ts";
import { sandboxServiceDeps } from "./sandbox-service.ts";

/** The reconciler whose watches the volume views come from; 503 until Berth watches the cluster. */
function watchingReconciler(runtime: Runtime) {
  const reconciler = runtime.reconciler.current();
  if (!reconciler) throw new ClusterUnavailableError("Berth is not watching the cluster yet (it is unreachable or has no agent-sandbox CRDs); see GET /api/health.");
  return reconciler;
}

/** What the volume actions need from the runtime: the claims Berth knows come from the reconciler's watches. */
export async function volumeServiceDeps(runtime: Runtime, as: ClusterConnection = runtime.cluster.connection): Promise<VolumeActionDeps> {
  const reconciler = watchingReconciler(runtime);
  const [{ sandboxApiVersion }, defaults] = await Promise.all([sandboxServiceDeps(runtime), effectiveGatewayDefaults(runtime)]);
  return { store: runtime.store, volumes: volumeResources(as, sandboxApiVersion), known: () => reconciler.volumes(), readers: { pods: helperPods(as), labelPrefix: defaults.labelPrefix } };
}

/** What making a claim needs: the gateway's default namespace and Berth's labels, and the namespaces it manages. */
export async function volumeCreationDeps(runtime: Runtime, as: ClusterConnection): Promise<VolumeCreationDeps> {
  const [{ sandboxApiVersion }, defaults] = await Promise.all([sandboxServiceDeps(runtime), effectiveGatewayDefaults(runtime)]);
  return {
    store: runtime.store,
    volumes: volumeResources(as, sandboxApiVersion),
    snapshots: snapshotResources(as),
    storageClasses: () => listStorageClassViews(runtime.cluster.connection),
    labelPrefix: defaults.labelPrefix,
    defaultNamespace: defaults.sandboxNamespace,
    managedNamespaces: () => namespaceChoices(runtime),
  };
}

/** What the snapshot actions need: the create's, with every snapshot call, as `as`. */
export async function snapshotServiceDeps(runtime: Runtime, as: ClusterConnection): Promise<SnapshotDeps> {
  return { ...(await volumeCreationDeps(runtime, as)), snapshots: snapshotResources(as) };
}

/** Which classes' claims can grow, which can be cloned (their CSI driver fills a claim from a source), and which are portable, for the Volumes pages to offer Expand, Clone and Move only there. */
export async function volumeClassTraits(runtime: Runtime): Promise<VolumeClassTraits> {
  const classes = await listStorageClassViews(runtime.cluster.connection);
  const names = (keep: (one: (typeof classes)[number]) => boolean) => classes.filter(keep).map((one) => one.name);
  return { expandable: names((one) => one.allowVolumeExpansion), clonable: names((one) => one.snapshots), portable: names((one) => one.placement === "portable") };
}

/** How full each of these claims of a namespace is, by name: those Berth knows, measured where a pod mounts them. */
export async function claimUsages(runtime: Runtime, namespace: string, names: string[]): Promise<Map<string, ClaimUsage>> {
  const reconciler = runtime.reconciler.current();
  if (!reconciler || names.length === 0) return new Map();
  const wanted = new Set(names);
  const volumes = (await reconciler.volumes()).filter((volume) => volume.namespace === namespace && wanted.has(volume.name));
  const measured = await runtime.volumeUsage.withUsage(volumes);
  return new Map(measured.map(({ name, usedBytes, capacityBytes, usageObservedAt, usageUnknownReason }) => [name, { usedBytes, capacityBytes, usageObservedAt, usageUnknownReason }]));
}

/** What reading inside a claim needs: where Berth knows each claim is mounted, and the helper pods' image, as `as`. */
export async function volumeFilesDeps(runtime: Runtime, as: ClusterConnection): Promise<VolumeFilesDeps> {
  const reconciler = watchingReconciler(runtime);
  const defaults = await effectiveGatewayDefaults(runtime);
  return { connection: as, volumes: () => reconciler.volumes(), audit: runtime.store.audit, labelPrefix: defaults.labelPrefix, image: runtime.config.volumeReaderImage };
}

/** What moving a workspace to another class needs: the claims Berth knows and how full they are, the classes (as Berth), and the helper pods' image; the claim and the pod made as `as`. */
export async function volumeMoveDeps(runtime: Runtime, as: ClusterConnection): Promise<VolumeMoveDeps> {
  const reconciler = watchingReconciler(runtime);
  const [{ sandboxApiVersion }, defaults] = await Promise.all([sandboxServiceDeps(runtime), effectiveGatewayDefaults(runtime)]);
  return {
    volumes: volumeResources(as, sandboxApiVersion),
    pods: helperPods(as),
    known: () => reconciler.volumes(),
    withUsage: (volumes) => runtime.volumeUsage.withUsage(volumes),
    storageClasses: () => listStorageClassViews(runtime.cluster.connection),
    audit: runtime.store.audit,
    labelPrefix: defaults.labelPrefix,
    image: runtime.config.volumeReaderImage,
  };
}

/** What storage is left over that the person may see: claims and snapshots of the namespaces where they may list claims, Released volumes if they may list volumes. */
export async function cleanUpFor(runtime: Runtime, person: Person, as: ClusterConnection): Promise<CleanUp> {
  const reconciler = watchingReconciler(runtime);
  const [namespaces, mayListVolumes] = await Promise.all([
    managedNamespaces(runtime).then((names) => namespacesWithVisibleClaims(runtime, person, names)),
    runtime.identity.decisions.allows(person, { resource: { verb: "list", ...KUBERNETES_RESOURCES.persistentVolumes } }),
  ]);
  const snapshots = snapshotResources(as);
  return findLeftovers(
    {
      volumes: () => reconciler.volumes(),
      persistentVolumes: () => reconciler.persistentVolumes(),
      hasClaim: (namespace, name) => reconciler.hasClaim(namespace, name),
      sandboxDeletedAt: async (id) => (await runtime.store.sandboxes.getSandbox(id))?.deletedAt ?? null,
      listSnapshots: (namespace) => snapshots.listSnapshots(namespace),
    },
    { namespaces, mayListVolumes },
  );
}
