import { controllerOf, findCondition, fnv1a32, groupOf, record } from "../k8s-objects.ts";
import { clone, deepEqual, type KubeObject, type OwnerReference, type StoredObject } from "../objects.ts";
import type { StoreEvent } from "../store/object-store.ts";

// What agent-sandbox's extensions controllers (sigs.k8s.io/agent-sandbox v0.5.6
// extensions/controllers) share, with each other and with its Sandbox controller: the labels and
// annotations that tie templates, warm pools, claims, Sandboxes and pods together, the name
// hashes, and the template's "secure by default" pod settings.

export const EXTENSIONS_GROUP = "extensions.agents.x-k8s.io";
export const TEMPLATES = { group: EXTENSIONS_GROUP, resource: "sandboxtemplates" } as const;
export const WARM_POOLS = { group: EXTENSIONS_GROUP, resource: "sandboxwarmpools" } as const;
export const CLAIMS = { group: EXTENSIONS_GROUP, resource: "sandboxclaims" } as const;
export const NETWORK_POLICIES = { group: "networking.k8s.io", resource: "networkpolicies" } as const;

export const WARM_POOL_LABEL = "agents.x-k8s.io/warm-pool-sandbox";
export const TEMPLATE_REF_HASH_LABEL = "agents.x-k8s.io/sandbox-template-ref-hash";
export const TEMPLATE_HASH_LABEL = "agents.x-k8s.io/sandbox-template-hash";
export const DEPRECATED_POD_TEMPLATE_HASH_LABEL = "agents.x-k8s.io/sandbox-pod-template-hash";
export const LAUNCH_TYPE_LABEL = "agents.x-k8s.io/launch-type";
export const CREATED_BY_LABEL = "agents.x-k8s.io/created-by";
export const CLAIM_UID_LABEL = "agents.x-k8s.io/claim-uid";
export const TEMPLATE_REF_ANNOTATION = "agents.x-k8s.io/sandbox-template-ref";
export const ASSIGNED_SANDBOX_ANNOTATION = "agents.x-k8s.io/sandbox-name";
export const SAFE_TO_EVICT_ANNOTATION = "cluster-autoscaler.kubernetes.io/safe-to-evict";
export const TRACE_CONTEXT_ANNOTATION = "opentelemetry.io/trace-context";
/** The pod agent-sandbox's controller runs a Sandbox in, when it is not named like the Sandbox. */
export const POD_NAME_ANNOTATION = "agents.x-k8s.io/pod-name";

/** The hash a name is labelled with (controllers.NameHash): FNV-1a, eight hex digits. */
export const nameHash = fnv1a32;

/** utils.MatchesGroupKind: a reference to `kind` of the extensions group, whatever its version. */
export const refersTo = (reference: OwnerReference | undefined, kind: string): reference is OwnerReference =>
  reference !== undefined && reference.kind === kind && groupOf(reference.apiVersion) === EXTENSIONS_GROUP;

/**
 * handler.EnqueueRequestForOwner(OnlyControllerOwner): the controlling `kind` of the object and,
 * on an update, of what it was, so an owner hears of a child it just lost.
 */
export function controllerKeys(event: StoreEvent, kind: string): string[] {
  const keys = new Set<string>();
  for (const object of [event.object, event.previous]) {
    const owner = object ? controllerOf(object) : undefined;
    if (object && refersTo(owner, kind)) keys.add(`${object.metadata.namespace}/${owner.name}`);
  }
  return [...keys];
}

export const isControlledBy = (object: KubeObject, owner: StoredObject) => controllerOf(object)?.uid === owner.metadata.uid;

export const isSandboxReady = (sandbox: KubeObject) => findCondition(sandbox, "Ready")?.status === "True";

/** The fields a Sandbox takes from its template (SandboxBlueprint). */
export function blueprintOf(spec: unknown): Record<string, unknown> {
  const { podTemplate, volumeClaimTemplates, service } = record(spec);
  return clone({
    podTemplate: podTemplate ?? {},
    ...(volumeClaimTemplates !== undefined ? { volumeClaimTemplates } : {}),
    ...(service !== undefined ? { service } : {}),
  });
}

/** A stable JSON form (keys sorted), so the same content always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The blueprint hash a warm pool labels its Sandboxes with (of canonical JSON; the controller hashes Go's). */
export const blueprintHash = (template: KubeObject) => nameHash(canonical(blueprintOf(template.spec)));
export const podTemplateHash = (template: KubeObject) => nameHash(canonical(record(template.spec).podTemplate ?? {}));

/**
 * ApplySandboxSecureDefaults: no service account token unless the template asks for one, and — under
 * the default managed network policy — public resolvers instead of the cluster's DNS.
 */
export function applySecureDefaults(template: KubeObject, podSpec: Record<string, unknown>): void {
  if (podSpec.automountServiceAccountToken === undefined) podSpec.automountServiceAccountToken = false;
  const templateSpec = record(template.spec);
  const management = templateSpec.networkPolicyManagement ?? "Managed";
  const secureByDefault = management === "Managed" && templateSpec.networkPolicy === undefined;
  if (secureByDefault && !podSpec.dnsPolicy) {
    podSpec.dnsPolicy = "None";
    podSpec.dnsConfig = { nameservers: ["8.8.8.8", "1.1.1.1"] };
  }
}

/** compareSandboxBlueprint: does a Sandbox still match its template (pod spec with the secure defaults, claims, service)? */
export function matchesTemplate(template: KubeObject, sandbox: KubeObject): boolean {
  const templateSpec = record(template.spec);
  const sandboxSpec = record(sandbox.spec);
  const expectedPodSpec = clone(record(record(templateSpec.podTemplate).spec));
  applySecureDefaults(template, expectedPodSpec);
  if (!deepEqual(expectedPodSpec, record(record(sandboxSpec.podTemplate).spec))) return false;
  const wanted = Array.isArray(templateSpec.volumeClaimTemplates) ? templateSpec.volumeClaimTemplates : [];
  const actual = Array.isArray(sandboxSpec.volumeClaimTemplates) ? sandboxSpec.volumeClaimTemplates : [];
  if (wanted.length !== actual.length) return false;
  for (let index = 0; index < wanted.length; index++) {
    const [one, other] = [record(wanted[index]), record(actual[index])];
    if (record(one.metadata).name !== record(other.metadata).name || !deepEqual(one.spec, other.spec)) return false;
  }
  return deepEqual(templateSpec.service, sandboxSpec.service);
}
