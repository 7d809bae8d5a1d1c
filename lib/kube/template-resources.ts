import { CustomObjectsApi } from "@kubernetes/client-node";
import { EXTENSIONS_API_GROUP } from "../domain/agent-sandbox-install.ts";
import type { SandboxApiVersion } from "../domain/sandbox-api.ts";
import type { SandboxClaimManifest, SandboxTemplateManifest, SandboxWarmPoolManifest } from "../render/manifests.ts";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube, KubeApiError, nullIfNotFound } from "./kube-errors.ts";

// The objects behind a Berth template — its SandboxTemplate and the SandboxWarmPool of the same
// name — and the SandboxClaims that take sandboxes from it, in agent-sandbox's extensions group, as intent-named calls over client-node. Writes
// carry what they were decided on: a replace its resourceVersion, a delete the uid it read, so
// an object changed or recreated meanwhile is refused (409) rather than overwritten.

/** A SandboxTemplate or SandboxWarmPool as the API server answers it; read further by lib/domain/template-view.ts. */
export interface StoredExtensionObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/** dryRun: the API server validates and authorizes the write, and stores nothing. */
interface WriteOptions {
  dryRun?: boolean;
}

/** What a write sets: the object's spec, and its labels and annotations besides those others set. */
type Wanted = Pick<SandboxTemplateManifest | SandboxWarmPoolManifest | StoredExtensionObject, "metadata" | "spec">;

const MAX_CONFLICT_RETRIES = 5;
const TEMPLATES = "sandboxtemplates";
const WARM_POOLS = "sandboxwarmpools";
const CLAIMS = "sandboxclaims";
type Plural = typeof TEMPLATES | typeof WARM_POOLS | typeof CLAIMS;

export function templateResources(connection: ClusterConnection, version: SandboxApiVersion) {
  const custom = connection.kubeConfig.makeApiClient(CustomObjectsApi);
  const at = (plural: Plural, namespace: string) => ({ group: EXTENSIONS_API_GROUP, version, plural, namespace });

  const list = async (plural: Plural, namespace?: string): Promise<StoredExtensionObject[]> => {
    const answer = await kube(() =>
      namespace === undefined ? custom.listClusterCustomObject({ group: EXTENSIONS_API_GROUP, version, plural }) : custom.listNamespacedCustomObject(at(plural, namespace)),
    );
    return (answer as { items: StoredExtensionObject[] }).items;
  };
  const read = (plural: Plural, namespace: string, name: string) => nullIfNotFound(() => custom.getNamespacedCustomObject({ ...at(plural, namespace), name })) as Promise<StoredExtensionObject | null>;
  const dryRun = (options: WriteOptions) => (options.dryRun ? { dryRun: "All" } : {});
  const create = async (plural: Plural, manifest: SandboxTemplateManifest | SandboxWarmPoolManifest | SandboxClaimManifest, options: WriteOptions) =>
    (await kube(() => custom.createNamespacedCustomObject({ ...at(plural, manifest.metadata.namespace), body: manifest, ...dryRun(options) }))) as StoredExtensionObject;
  /**
   * The wanted spec, labels and annotations written over the object as it is now, again after a
   * conflict: the controllers write to these objects too (a template's name-hash label, a pool's
   * status), and a change a person asked for should not fail for that. Labels and annotations
   * others set are kept.
   */
  const writeOver = async (plural: Plural, wanted: Wanted, options: WriteOptions): Promise<StoredExtensionObject> => {
    const { namespace, name } = wanted.metadata;
    for (let attempt = 1; ; attempt++) {
      const latest = await read(plural, namespace, name);
      if (!latest) throw new KubeApiError(404, "NotFound", `${plural}.${EXTENSIONS_API_GROUP} "${name}" not found`);
      const body = {
        ...latest,
        metadata: { ...latest.metadata, labels: { ...latest.metadata.labels, ...wanted.metadata.labels }, annotations: { ...latest.metadata.annotations, ...wanted.metadata.annotations } },
        spec: wanted.spec,
      };
      try {
        return (await kube(() => custom.replaceNamespacedCustomObject({ ...at(plural, namespace), name, body, ...dryRun(options) }))) as StoredExtensionObject;
      } catch (error) {
        if (!(error instanceof KubeApiError && error.conflict) || attempt >= MAX_CONFLICT_RETRIES) throw error;
      }
    }
  };
  /** Gone already counts as done. */
  const remove = async (plural: Plural, namespace: string, name: string, uid: string) => {
    await nullIfNotFound(() => custom.deleteNamespacedCustomObject({ ...at(plural, namespace), name, body: { preconditions: { uid } } }));
  };

  return {
    /** Every namespace's without `namespace` (Berth's own lists), one namespace's with it. */
    listTemplates: (namespace?: string) => list(TEMPLATES, namespace),
    listWarmPools: (namespace?: string) => list(WARM_POOLS, namespace),
    readTemplate: (namespace: string, name: string) => read(TEMPLATES, namespace, name),
    readWarmPool: (namespace: string, name: string) => read(WARM_POOLS, namespace, name),
    createTemplate: (manifest: SandboxTemplateManifest, options: WriteOptions = {}) => create(TEMPLATES, manifest, options),
    createWarmPool: (manifest: SandboxWarmPoolManifest, options: WriteOptions = {}) => create(WARM_POOLS, manifest, options),
    /** A rendered template, or (to put one back) the object as it was read, over the latest. */
    writeTemplate: (wanted: Wanted, options: WriteOptions = {}) => writeOver(TEMPLATES, wanted, options),
    writeWarmPool: (wanted: SandboxWarmPoolManifest, options: WriteOptions = {}) => writeOver(WARM_POOLS, wanted, options),
    deleteTemplate: (namespace: string, name: string, uid: string) => remove(TEMPLATES, namespace, name, uid),
    deleteWarmPool: (namespace: string, name: string, uid: string) => remove(WARM_POOLS, namespace, name, uid),
    createClaim: (manifest: SandboxClaimManifest) => create(CLAIMS, manifest, {}),
    readClaim: (namespace: string, name: string) => read(CLAIMS, namespace, name),
  };
}

export type TemplateResources = ReturnType<typeof templateResources>;
