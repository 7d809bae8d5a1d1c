import type { Clock } from "../clock.ts";
import { labelKeyErrors, labelValueErrors } from "../api/selectors/validation.ts";
import { controllerOf, findCondition, keyOf, record, refs, removeCondition, setCondition, setControllerReference, splitKey, timestamp, type Condition } from "../k8s-objects.ts";
import { clone, deepEqual, type KubeObject, type StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import { resourceId, type ObjectStore, type StoreEvent } from "../store/object-store.ts";
import { createAsApiServer } from "./create-as-api-server.ts";
import type { EventRecorder } from "./event-recorder.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";
import {
  ASSIGNED_SANDBOX_ANNOTATION, CLAIMS, CLAIM_UID_LABEL, CREATED_BY_LABEL, DEPRECATED_POD_TEMPLATE_HASH_LABEL, LAUNCH_TYPE_LABEL, NETWORK_POLICIES,
  POD_NAME_ANNOTATION, SAFE_TO_EVICT_ANNOTATION, TEMPLATES, TEMPLATE_HASH_LABEL, TEMPLATE_REF_ANNOTATION, TEMPLATE_REF_HASH_LABEL, TRACE_CONTEXT_ANNOTATION,
  WARM_POOLS, WARM_POOL_LABEL, applySecureDefaults, blueprintHash, blueprintOf, controllerKeys, isControlledBy, isSandboxReady, matchesTemplate, nameHash,
  refersTo,
} from "./sandbox-extensions.ts";

// The SandboxClaim controller (extensions/controllers/sandboxclaim_controller.go): hands a claim a
// Sandbox of its warm pool's template.
// - A claim with a Sandbox (in its status, its agents.x-k8s.io/sandbox-name annotation, or named
//   like it) keeps it; a stale reference is removed.
// - Otherwise a pool Sandbox is adopted: one Ready with a pod IP first (preferring the node holding
//   most candidates), else one with an IP; for 2 s after the claim's creation it waits for
//   candidates still without an IP. Adoption annotates the claim, then makes the claim the Sandbox's
//   sole owner, drops the pool labels, stamps the claim's uid and the template's pod metadata (with
//   the claim's additionalPodMetadata), and labels it launch-type warm.
// - With no candidate (or with env or volumeClaimTemplates in the claim) a Sandbox named like the
//   claim is made from the template: launch-type cold, env injected and claims merged as the
//   template's policies allow.
// - The claim's Ready condition is the Sandbox's, or says why not (SandboxMissing, SandboxNotReady,
//   WarmPoolNotFound, TemplateNotFound, InvalidMetadata, EnvVarsInjectionRejected,
//   VolumeClaimTemplatesError, ReconcilerError, ClaimExpired); Finished is mirrored; status.sandbox
//   names the Sandbox and its pod IPs. The first Ready is stamped in agents.x-k8s.io/claim-first-ready-at.
// - lifecycle: past shutdownTime (or ttlSecondsAfterFinished after Finished) Ready=False ClaimExpired
//   first, then the Sandbox is deleted (Retain) or the claim itself (Delete, DeleteForeground).

const OBSERVED_ANNOTATION = "agents.x-k8s.io/controller-first-observed-at";
const FIRST_READY_ANNOTATION = "agents.x-k8s.io/claim-first-ready-at";
const IMMEDIATE_REQUEUE_MS = 1;
const WARM_CANDIDATE_GRACE_MS = 2_000;
const WARM_CANDIDATE_RETRY_MS = 500;
const NOT_FOUND_REQUEUE_MS = 60_000;
const CACHE_LAG_REQUEUE_MS = 200;
const ALLOWED_LABEL_DOMAINS = ["sandbox.users.io"];
const RESTRICTED_DOMAINS = ["kubernetes.io", "k8s.io", "agents.x-k8s.io"];

const SANDBOXES = refs.sandboxes;
const quoted = (text: string) => JSON.stringify(text);
const strings = (value: unknown) => record(value) as Record<string, string>;

type Reason =
  | "TemplateNotFound" | "WarmPoolNotFound" | "InvalidMetadata" | "EnvVarsInjectionRejected" | "SandboxNotOwned" | "VolumeClaimTemplatesError"
  | "SandboxCreatePending" | "ReconcilerError";

/** A reconcile error and how the Ready condition and the retry treat it. */
class ClaimError extends Error {
  constructor(readonly reason: Reason, message: string) {
    super(message);
  }

  /** suppressErrors: written into the condition, not retried (only a change of the claim helps). */
  get suppressed(): boolean {
    return ["InvalidMetadata", "SandboxNotOwned", "EnvVarsInjectionRejected", "VolumeClaimTemplatesError"].includes(this.reason);
  }
}

const asClaimError = (error: unknown, prefix = ""): ClaimError => {
  if (error instanceof ClaimError) return error;
  if (error instanceof StatusError) return new ClaimError("ReconcilerError", `${prefix}${error.message}`);
  throw error;
};

/** Candidates are still without pod IPs: look again shortly. */
class CandidatesPending {
  constructor(readonly retryAfterMs: number) {}
}

type Outcome = { sandbox?: StoredObject; error?: ClaimError };

export class SandboxClaimController implements Reconciler {
  readonly name = "sandboxclaim";

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly recorder?: EventRecorder,
  ) {}

  initialKeys(): string[] {
    return this.store.list(CLAIMS).map(keyOf);
  }

  /** For(SandboxClaim), Owns(Sandbox), and the claims still waiting on a pool that changed. */
  keysFor(event: StoreEvent): string[] {
    if (event.resource === resourceId(CLAIMS)) return [keyOf(event.object)];
    if (event.resource === resourceId(SANDBOXES)) return controllerKeys(event, "SandboxClaim");
    if (event.resource === resourceId(WARM_POOLS) && (event.type !== "MODIFIED" || event.previous?.metadata.generation !== event.object.metadata.generation)) {
      return this.store
        .list(CLAIMS, event.object.metadata.namespace)
        .filter((claim) => warmPoolOf(claim) === event.object.metadata.name && !sandboxNameOf(claim) && !claim.metadata.deletionTimestamp)
        .map(keyOf);
    }
    return [];
  }

  reconcile(key: string): ReconcileResult | void {
    const { namespace, name } = splitKey(key);
    let claim = this.store.peek(CLAIMS, namespace, name);
    if (!claim) return;
    this.removeLegacyNetworkPolicy(claim);
    if (claim.metadata.deletionTimestamp) return;
    claim = this.stampObserved(claim);
    const working = clone(claim);
    const oldStatus = clone(record(claim.status));

    const [expired] = this.expiry(working);
    if (expired && !hasClaimExpired(working)) {
      setCondition(working, this.readyCondition(working, {}, true), this.now());
      this.writeStatus(oldStatus, working);
      this.recorder?.record(claim, "Normal", "ClaimExpired", "Claim expired", "sandboxclaim-controller");
      return { requeueAfterMs: IMMEDIATE_REQUEUE_MS };
    }
    const policy = record(record(working.spec).lifecycle).shutdownPolicy;
    if (expired && (policy === "Delete" || policy === "DeleteForeground")) {
      this.recorder?.record(claim, "Normal", "ClaimExpired", `Deleting Claim (ShutdownPolicy=${String(policy)})`, "sandboxclaim-controller");
      try {
        this.store.delete(CLAIMS, namespace, name, { preconditions: { uid: claim.metadata.uid }, ...(policy === "DeleteForeground" ? { addFinalizers: ["foregroundDeletion"] } : {}) });
      } catch (error) {
        if (!(error instanceof StatusError && error.code === 404)) throw error;
      }
      return;
    }

    let outcome: Outcome;
    try {
      outcome = expired ? this.reconcileExpired(working) : this.reconcileActive(working);
    } catch (error) {
      if (error instanceof CandidatesPending) return { requeueAfterMs: error.retryAfterMs };
      outcome = { error: asClaimError(error) };
    }
    this.setStatus(working, outcome, expired);
    const [postExpired, timeLeftMs] = this.expiry(working);
    if (postExpired && !hasClaimExpired(working)) {
      setCondition(working, this.readyCondition(working, outcome, true), this.now());
      this.writeStatus(oldStatus, working);
      this.recorder?.record(claim, "Normal", "ClaimExpired", "Claim expired", "sandboxclaim-controller");
      return { requeueAfterMs: IMMEDIATE_REQUEUE_MS };
    }
    if (this.writeStatus(oldStatus, working)) this.stampFirstReady(working, oldStatus);

    let requeueAfterMs: number | undefined;
    if (!expired) requeueAfterMs = postExpired ? IMMEDIATE_REQUEUE_MS : timeLeftMs;
    const { error } = outcome;
    if (error?.reason === "WarmPoolNotFound" || error?.reason === "TemplateNotFound") return { requeueAfterMs: Math.min(requeueAfterMs ?? NOT_FOUND_REQUEUE_MS, NOT_FOUND_REQUEUE_MS) };
    if (error?.reason === "SandboxCreatePending") return { requeueAfterMs: Math.min(requeueAfterMs ?? CACHE_LAG_REQUEUE_MS, CACHE_LAG_REQUEUE_MS) };
    if (error && !error.suppressed) throw error;
    return requeueAfterMs === undefined ? undefined : { requeueAfterMs };
  }

  private now(): string {
    return timestamp(this.clock.now());
  }

  /** checkExpiration: [expired, time left] from shutdownTime and ttlSecondsAfterFinished after Finished. */
  private expiry(claim: KubeObject): [boolean, number | undefined] {
    const lifecycle = record(record(claim.spec).lifecycle);
    if (Object.keys(lifecycle).length === 0) return [false, undefined];
    let expireAt = typeof lifecycle.shutdownTime === "string" ? Date.parse(lifecycle.shutdownTime) : undefined;
    const finished = findCondition(claim, "Finished");
    if (typeof lifecycle.ttlSecondsAfterFinished === "number" && finished?.status === "True" && finished.lastTransitionTime) {
      const ttlAt = Date.parse(finished.lastTransitionTime) + lifecycle.ttlSecondsAfterFinished * 1000;
      if (expireAt === undefined || ttlAt < expireAt) expireAt = ttlAt;
    }
    if (expireAt === undefined) return [false, undefined];
    const now = this.clock.now().getTime();
    return now >= expireAt ? [true, undefined] : [false, expireAt - now];
  }

  private reconcileExpired(claim: StoredObject): Outcome {
    const sandboxName = sandboxNameOf(claim) || claim.metadata.name;
    const sandbox = this.store.peek(SANDBOXES, claim.metadata.namespace, sandboxName);
    if (!sandbox) return {};
    if (!isControlledBy(sandbox, claim)) {
      return { error: new ClaimError("SandboxNotOwned", `sandbox not owned by this claim: sandbox ${quoted(sandbox.metadata.name)} is not owned by claim ${quoted(claim.metadata.name)}`) };
    }
    if (!sandbox.metadata.deletionTimestamp) {
      try {
        this.store.delete(SANDBOXES, sandbox.metadata.namespace, sandbox.metadata.name, { preconditions: { uid: sandbox.metadata.uid } });
      } catch (error) {
        return { sandbox, error: asClaimError(error, "failed to delete expired sandbox: ") };
      }
    }
    return { sandbox };
  }

  private reconcileActive(claim: StoredObject): Outcome {
    const metadataError = validateAdditionalPodMetadata(claim);
    if (metadataError) return { error: new ClaimError("InvalidMetadata", `invalid additionalPodMetadata: ${metadataError}`) };
    const existing = this.findOrAdopt(claim);
    if (existing) {
      const template = this.templateOf(claim);
      if (template instanceof ClaimError) {
        const extra = record(record(claim.spec).additionalPodMetadata);
        if (Object.keys(record(extra.labels)).length > 0 || Object.keys(record(extra.annotations)).length > 0) {
          return { error: new ClaimError(template.reason, `failed to get template for metadata propagation: ${template.message}`) };
        }
        return { sandbox: existing };
      }
      return this.keepPodMetadata(claim, existing, template);
    }
    const template = this.templateOf(claim);
    if (template instanceof ClaimError) return { error: template };
    return this.createSandbox(claim, template);
  }

  /** The Sandbox's pod metadata follows the template's and the claim's (the fast path's patch). */
  private keepPodMetadata(claim: StoredObject, sandbox: StoredObject, template: StoredObject): Outcome {
    const merged = this.podMetadataFor(claim, template, nameHash(template.metadata.name));
    if (typeof merged === "string") return { sandbox, error: new ClaimError("ReconcilerError", merged) };
    const next = clone(sandbox);
    const labels: Record<string, string> = { ...next.metadata.labels, [TEMPLATE_REF_HASH_LABEL]: nameHash(template.metadata.name) };
    const createdBy = claim.metadata.labels?.[CREATED_BY_LABEL];
    if (createdBy) labels[CREATED_BY_LABEL] = createdBy;
    else delete labels[CREATED_BY_LABEL];
    next.metadata.labels = labels;
    const spec = record(next.spec);
    spec.podTemplate = { ...record(spec.podTemplate), metadata: merged };
    next.spec = spec;
    if (deepEqual(next, sandbox)) return { sandbox };
    try {
      return { sandbox: this.store.update(SANDBOXES, next) };
    } catch (error) {
      return { sandbox, error: asClaimError(error, `failed to patch sandbox metadata for claim ${quoted(claim.metadata.name)}: `) };
    }
  }

  /** The template's pod metadata with the claim's identity and additionalPodMetadata, or why they conflict. */
  private podMetadataFor(claim: StoredObject, template: StoredObject, templateHash: string): Record<string, unknown> | string {
    const base = clone(record(record(record(template.spec).podTemplate).metadata));
    const labels: Record<string, string> = { ...strings(base.labels), [CLAIM_UID_LABEL]: claim.metadata.uid, [TEMPLATE_REF_HASH_LABEL]: templateHash };
    const createdBy = claim.metadata.labels?.[CREATED_BY_LABEL];
    if (createdBy) labels[CREATED_BY_LABEL] = createdBy;
    else delete labels[CREATED_BY_LABEL];
    base.labels = labels;
    const conflict = mergePodMetadata(base, claim);
    return conflict ?? base;
  }

  /** getOrCreateSandbox up to the cold start: the claim's Sandbox if it has one, else one adopted from the pool. */
  private findOrAdopt(claim: StoredObject): StoredObject | undefined {
    const namespace = claim.metadata.namespace;
    const statusName = sandboxNameOf(claim);
    if (statusName) {
      const sandbox = this.store.peek(SANDBOXES, namespace, statusName);
      if (sandbox && isControlledBy(sandbox, claim)) {
        const warm = claim.metadata.annotations?.[ASSIGNED_SANDBOX_ANNOTATION] === statusName || statusName !== claim.metadata.name;
        return this.ensureLaunchType(sandbox, warm ? "warm" : "cold");
      }
    }
    const assigned = claim.metadata.annotations?.[ASSIGNED_SANDBOX_ANNOTATION] || claim.metadata.labels?.[ASSIGNED_SANDBOX_ANNOTATION];
    if (assigned) {
      const sandbox = this.store.peek(SANDBOXES, namespace, assigned);
      if (sandbox && isControlledBy(sandbox, claim)) return this.ensureLaunchType(sandbox, "warm");
      if (sandbox && refersTo(controllerOf(sandbox), "SandboxWarmPool") && !candidateProblem(sandbox, claim)) return this.completeAdoption(claim, sandbox);
      // Gone, no longer adoptable, or another claim's: the reference is stale.
      if (!sandbox || refersTo(controllerOf(sandbox), "SandboxWarmPool") || refersTo(controllerOf(sandbox), "SandboxClaim")) this.forgetAssigned(claim, assigned);
    }
    const named = this.store.peek(SANDBOXES, namespace, claim.metadata.name);
    if (named) {
      if (!isControlledBy(named, claim)) {
        throw new ClaimError(
          "ReconcilerError",
          `sandbox ${quoted(named.metadata.name)} is not controlled by claim ${quoted(claim.metadata.name)}. Please use a different claim name or delete the sandbox manually`,
        );
      }
      return this.ensureLaunchType(named, "cold");
    }
    const spec = record(claim.spec);
    if ((Array.isArray(spec.env) && spec.env.length > 0) || (Array.isArray(spec.volumeClaimTemplates) && spec.volumeClaimTemplates.length > 0)) return undefined;
    return this.adoptFromPool(claim);
  }

  private adoptFromPool(claim: StoredObject): StoredObject | undefined {
    const poolName = warmPoolOf(claim);
    const pool = this.store.peek(WARM_POOLS, claim.metadata.namespace, poolName);
    const template = pool ? this.store.peek(TEMPLATES, claim.metadata.namespace, String(record(record(pool.spec).sandboxTemplateRef).name ?? "")) : undefined;
    const recreate = record(record(pool?.spec).updateStrategy).type === "Recreate";
    const currentHash = recreate && template ? blueprintHash(template) : undefined;
    const candidates = candidateOrder(
      this.store.list(SANDBOXES, claim.metadata.namespace).filter((sandbox) => refersTo(controllerOf(sandbox), "SandboxWarmPool") && !candidateProblem(sandbox, claim)),
    );
    let pending = 0;
    let fallback: StoredObject | undefined;
    let chosen: StoredObject | undefined;
    for (const candidate of candidates) {
      // Without the pool (or, under Recreate, its template) no candidate can be vetted: they wait.
      if (!pool || (recreate && !template)) {
        if (!podIPsOf(candidate).length) pending++;
        continue;
      }
      // Under Recreate, a candidate made from an older template is passed over (its pool replaces it).
      if (recreate && template && candidate.metadata.labels?.[TEMPLATE_HASH_LABEL] !== currentHash && !matchesTemplate(template, candidate)) continue;
      if (podIPsOf(candidate).length === 0) {
        pending++;
        continue;
      }
      if (isSandboxReady(candidate)) {
        chosen = candidate;
        break;
      }
      fallback ??= candidate;
    }
    chosen ??= fallback;
    if (chosen) {
      this.assign(claim, chosen.metadata.name);
      const adopted = this.completeAdoption(claim, chosen);
      this.recorder?.record(claim, "Normal", "SandboxAdopted", `Adopted warm pool Sandbox ${quoted(adopted.metadata.name)}`, "sandboxclaim-controller");
      return adopted;
    }
    if (pending > 0) {
      const remaining = Date.parse(claim.metadata.creationTimestamp ?? "") + WARM_CANDIDATE_GRACE_MS - this.clock.now().getTime();
      if (remaining > 0) throw new CandidatesPending(Math.min(WARM_CANDIDATE_RETRY_MS, remaining));
    }
    return undefined;
  }

  /** The claim records the Sandbox it is taking before it takes it, so a restart finishes the adoption. */
  private assign(claim: StoredObject, sandboxName: string): void {
    const latest = this.store.get(CLAIMS, claim.metadata.namespace, claim.metadata.name);
    if (latest.metadata.uid !== claim.metadata.uid) throw new ClaimError("ReconcilerError", `adoption write conflict: claim ${claim.metadata.name} was deleted and recreated during adoption`);
    const updated = this.store.update(CLAIMS, { ...latest, metadata: { ...latest.metadata, annotations: { ...latest.metadata.annotations, [ASSIGNED_SANDBOX_ANNOTATION]: sandboxName } } });
    claim.metadata = updated.metadata;
  }

  private forgetAssigned(claim: StoredObject, sandboxName: string): void {
    const latest = this.store.peek(CLAIMS, claim.metadata.namespace, claim.metadata.name);
    if (!latest || latest.metadata.uid !== claim.metadata.uid) return;
    const annotations = { ...latest.metadata.annotations };
    const labels = { ...latest.metadata.labels };
    if (annotations[ASSIGNED_SANDBOX_ANNOTATION] === sandboxName) delete annotations[ASSIGNED_SANDBOX_ANNOTATION];
    if (labels[ASSIGNED_SANDBOX_ANNOTATION] === sandboxName) delete labels[ASSIGNED_SANDBOX_ANNOTATION];
    const updated = this.store.update(CLAIMS, { ...latest, metadata: { ...latest.metadata, annotations, labels } });
    claim.metadata = updated.metadata;
  }

  /** completeAdoption: the claim becomes the Sandbox's only owner; the pool's marks go, the claim's come. */
  private completeAdoption(claim: StoredObject, sandbox: StoredObject): StoredObject {
    const adopted = clone(sandbox);
    const labels = { ...adopted.metadata.labels };
    let templateHash = labels[TEMPLATE_REF_HASH_LABEL] ?? "";
    for (const label of [WARM_POOL_LABEL, DEPRECATED_POD_TEMPLATE_HASH_LABEL, TEMPLATE_HASH_LABEL]) delete labels[label];
    labels[LAUNCH_TYPE_LABEL] = "warm";
    labels[CLAIM_UID_LABEL] = claim.metadata.uid;
    const createdBy = claim.metadata.labels?.[CREATED_BY_LABEL];
    if (createdBy) labels[CREATED_BY_LABEL] = createdBy;
    else delete labels[CREATED_BY_LABEL];
    const spec = record(adopted.spec);
    const podTemplate = record(spec.podTemplate);
    const podMetadata = record(podTemplate.metadata);
    if (strings(podMetadata.annotations)[SAFE_TO_EVICT_ANNOTATION] === "true") {
      const { [SAFE_TO_EVICT_ANNOTATION]: _dropped, ...rest } = strings(podMetadata.annotations);
      podMetadata.annotations = rest;
    }
    adopted.metadata.ownerReferences = [];
    setControllerReference(adopted, claim);
    const annotations: Record<string, string> = { ...adopted.metadata.annotations, [POD_NAME_ANNOTATION]: adopted.metadata.name };
    const trace = claim.metadata.annotations?.[TRACE_CONTEXT_ANNOTATION];
    if (trace) annotations[TRACE_CONTEXT_ANNOTATION] = trace;
    adopted.metadata.annotations = annotations;

    const template = this.templateOf(claim);
    if (!templateHash && !(template instanceof ClaimError)) templateHash = nameHash(template.metadata.name);
    if (templateHash) labels[TEMPLATE_REF_HASH_LABEL] = templateHash;
    adopted.metadata.labels = labels;
    let nextPodMetadata: Record<string, unknown>;
    if (!(template instanceof ClaimError)) {
      const merged = this.podMetadataFor(claim, template, templateHash);
      if (typeof merged === "string") throw new ClaimError("ReconcilerError", merged);
      nextPodMetadata = merged;
    } else {
      const podLabels: Record<string, string> = { ...strings(podMetadata.labels), [CLAIM_UID_LABEL]: claim.metadata.uid };
      if (createdBy) podLabels[CREATED_BY_LABEL] = createdBy;
      else delete podLabels[CREATED_BY_LABEL];
      if (templateHash) podLabels[TEMPLATE_REF_HASH_LABEL] = templateHash;
      nextPodMetadata = { ...podMetadata, labels: podLabels };
      const conflict = mergePodMetadata(nextPodMetadata, claim);
      if (conflict) throw new ClaimError("ReconcilerError", conflict);
    }
    spec.podTemplate = { ...podTemplate, metadata: nextPodMetadata };
    adopted.spec = spec;
    try {
      // A merge patch with the resourceVersion it read: a concurrent write makes it retry.
      return this.store.update(SANDBOXES, adopted);
    } catch (error) {
      throw asClaimError(error, `adoption write conflict: completing adoption of ${adopted.metadata.name} for claim ${claim.metadata.name}: `);
    }
  }

  private ensureLaunchType(sandbox: StoredObject, launchType: "warm" | "cold"): StoredObject {
    if (sandbox.metadata.labels?.[LAUNCH_TYPE_LABEL] !== undefined) return sandbox;
    return this.store.update(SANDBOXES, { ...sandbox, metadata: { ...sandbox.metadata, resourceVersion: undefined, labels: { ...sandbox.metadata.labels, [LAUNCH_TYPE_LABEL]: launchType } } });
  }

  /** The pool's template, or why there is none. */
  private templateOf(claim: StoredObject): StoredObject | ClaimError {
    const poolName = warmPoolOf(claim);
    const pool = this.store.peek(WARM_POOLS, claim.metadata.namespace, poolName);
    if (!pool) return new ClaimError("WarmPoolNotFound", `SandboxWarmPool ${quoted(poolName)} not found`);
    const templateName = String(record(record(pool.spec).sandboxTemplateRef).name ?? "");
    const template = this.store.peek(TEMPLATES, claim.metadata.namespace, templateName);
    return template ?? new ClaimError("TemplateNotFound", `SandboxTemplate ${quoted(templateName)} not found`);
  }

  /** createSandbox: the cold start, a Sandbox named like the claim made from the template. */
  private createSandbox(claim: StoredObject, template: StoredObject): Outcome {
    const templateSpec = record(template.spec);
    const claimSpec = record(claim.spec);
    const spec = blueprintOf(templateSpec);
    const claimTemplates = Array.isArray(claimSpec.volumeClaimTemplates) ? claimSpec.volumeClaimTemplates.map(record) : [];
    const templateTemplates = Array.isArray(templateSpec.volumeClaimTemplates) ? templateSpec.volumeClaimTemplates.map(record) : [];
    const merged = mergeVolumeClaimTemplates(templateTemplates, claimTemplates, String(templateSpec.volumeClaimTemplatesPolicy ?? ""));
    if (typeof merged === "string") return { error: new ClaimError("VolumeClaimTemplatesError", merged) };
    if (merged.length > 0) spec.volumeClaimTemplates = merged;
    else delete spec.volumeClaimTemplates;

    const templateHash = nameHash(template.metadata.name);
    const labels: Record<string, string> = { [CLAIM_UID_LABEL]: claim.metadata.uid, [LAUNCH_TYPE_LABEL]: "cold", [TEMPLATE_REF_HASH_LABEL]: templateHash };
    const createdBy = claim.metadata.labels?.[CREATED_BY_LABEL];
    if (createdBy) labels[CREATED_BY_LABEL] = createdBy;
    const podTemplate = record(spec.podTemplate);
    const podMetadata = record(podTemplate.metadata);
    const podLabels: Record<string, string> = { ...strings(podMetadata.labels), [CLAIM_UID_LABEL]: claim.metadata.uid, [TEMPLATE_REF_HASH_LABEL]: templateHash };
    if (createdBy) podLabels[CREATED_BY_LABEL] = createdBy;
    else delete podLabels[CREATED_BY_LABEL];
    podMetadata.labels = podLabels;
    const conflict = mergePodMetadata(podMetadata, claim);
    if (conflict) return { error: new ClaimError("ReconcilerError", conflict) };
    podTemplate.metadata = podMetadata;
    const podSpec = record(podTemplate.spec);
    const envError = injectEnv(podSpec, claimSpec.env, String(templateSpec.envVarsInjectionPolicy ?? ""));
    if (envError) return { error: envError };
    applySecureDefaults(template, podSpec);
    podTemplate.spec = podSpec;
    spec.podTemplate = podTemplate;

    const annotations: Record<string, string> = { [TEMPLATE_REF_ANNOTATION]: template.metadata.name };
    const trace = claim.metadata.annotations?.[TRACE_CONTEXT_ANNOTATION];
    if (trace) annotations[TRACE_CONTEXT_ANNOTATION] = trace;
    const sandbox: KubeObject = {
      apiVersion: "agents.x-k8s.io/v1beta1",
      kind: "Sandbox",
      metadata: { name: claim.metadata.name, namespace: claim.metadata.namespace, labels, annotations },
      spec,
    };
    setControllerReference(sandbox, claim);
    try {
      const created = createAsApiServer(this.store, SANDBOXES.group, SANDBOXES.resource, sandbox);
      this.recorder?.record(claim, "Normal", "SandboxProvisioned", `Created Sandbox ${quoted(created.metadata.name)}`, "sandboxclaim-controller");
      return { sandbox: created };
    } catch (error) {
      if (error instanceof StatusError && error.code === 409) return { error: new ClaimError("SandboxCreatePending", error.message) };
      return { error: asClaimError(error, "sandbox create error: ") };
    }
  }

  /** computeReadyCondition. */
  private readyCondition(claim: KubeObject, { sandbox, error }: Outcome, expired: boolean): Condition {
    const generation = claim.metadata.generation ?? 1;
    const condition = (reason: string, message: string): Condition => ({ type: "Ready", status: "False", reason, message, observedGeneration: generation });
    if (error) {
      switch (error.reason) {
        case "TemplateNotFound":
        case "InvalidMetadata":
        case "EnvVarsInjectionRejected":
        case "VolumeClaimTemplatesError":
          return condition(error.reason, error.message);
        case "WarmPoolNotFound":
          return condition(error.reason, `SandboxWarmPool ${quoted(warmPoolOf(claim))} not found`);
        case "SandboxCreatePending":
          return condition(error.reason, "Sandbox already created; waiting for cache to converge");
        case "SandboxNotOwned":
          return condition("ClaimExpired", `Claim expired. ${error.message}; deletion skipped.`);
        default:
          return condition("ReconcilerError", `Error seen: ${error.message}`);
      }
    }
    if (expired) return condition("ClaimExpired", "Claim expired. Sandbox cleanup initiated.");
    if (!sandbox) return condition("SandboxMissing", "Sandbox does not exist");
    const ready = findCondition(sandbox, "Ready");
    if (ready?.reason === "SandboxExpired") return condition("SandboxExpired", "Underlying Sandbox resource has expired independently of the Claim.");
    return ready ? clone(ready) : condition("SandboxNotReady", "Sandbox is not ready");
  }

  /** computeAndSetStatus: Ready, Finished mirrored, and the Sandbox's name and pod IPs. */
  private setStatus(claim: StoredObject, outcome: Outcome, expired: boolean): void {
    const { sandbox, error } = outcome;
    if (!sandbox && error?.reason === "SandboxCreatePending" && sandboxNameOf(claim)) return;
    const ready = this.readyCondition(claim, outcome, expired);
    setCondition(claim, ready, ready.lastTransitionTime ?? this.now());
    if (sandbox) {
      const finished = findCondition(sandbox, "Finished");
      if (finished) setCondition(claim, clone(finished), finished.lastTransitionTime ?? this.now());
      else removeCondition(claim, "Finished");
    } else if (!expired) {
      removeCondition(claim, "Finished");
    }
    const status = record(claim.status);
    if (sandbox) {
      const podIPs = record(sandbox.status).podIPs;
      status.sandbox = { name: sandbox.metadata.name, ...(Array.isArray(podIPs) && podIPs.length > 0 ? { podIPs } : {}) };
    } else if (!error || error.reason === "SandboxNotOwned") {
      delete status.sandbox;
    }
    claim.status = status;
  }

  /** Merge-patches the status when it changed (conditions compared by type, as the controller sorts them). */
  private writeStatus(oldStatus: Record<string, unknown>, claim: StoredObject): boolean {
    const byType = (status: Record<string, unknown>) => ({
      ...status,
      conditions: [...((status.conditions as Condition[] | undefined) ?? [])].sort((a, b) => (a.type < b.type ? -1 : 1)),
    });
    const next = record(claim.status);
    if (Array.isArray(next.conditions)) next.conditions = byType(next).conditions;
    if (deepEqual(byType(oldStatus), byType(next))) return true;
    const latest = this.store.peek(CLAIMS, claim.metadata.namespace, claim.metadata.name);
    if (!latest || latest.metadata.uid !== claim.metadata.uid) return true;
    // MergeFromWithOptimisticLock: a status computed from a stale view is dropped, not forced.
    if (latest.metadata.resourceVersion !== claim.metadata.resourceVersion) return false;
    this.store.update(CLAIMS, { ...latest, status: next });
    return true;
  }

  /** recordCreationLatencyMetric's annotation: when the claim was first Ready. */
  private stampFirstReady(claim: StoredObject, oldStatus: Record<string, unknown>): void {
    const isReady = findCondition(claim, "Ready")?.status === "True";
    const wasReady = ((oldStatus.conditions as Condition[] | undefined) ?? []).some((one) => one.type === "Ready" && one.status === "True");
    if (claim.metadata.annotations?.[FIRST_READY_ANNOTATION]) return;
    if (!isReady && !wasReady) return;
    const value = isReady && !wasReady ? this.clock.now().toISOString() : "unknown";
    const latest = this.store.peek(CLAIMS, claim.metadata.namespace, claim.metadata.name);
    if (!latest) return;
    this.store.update(CLAIMS, { ...latest, metadata: { ...latest.metadata, annotations: { ...latest.metadata.annotations, [FIRST_READY_ANNOTATION]: value } } });
  }

  private stampObserved(claim: StoredObject): StoredObject {
    if (claim.metadata.annotations?.[OBSERVED_ANNOTATION]) return claim;
    return this.store.update(CLAIMS, {
      ...claim,
      metadata: { ...claim.metadata, annotations: { ...claim.metadata.annotations, [OBSERVED_ANNOTATION]: this.clock.now().toISOString() } },
    });
  }

  /** Earlier releases made a NetworkPolicy per claim; the template's replaces it. */
  private removeLegacyNetworkPolicy(claim: StoredObject): void {
    const policy = this.store.peek(NETWORK_POLICIES, claim.metadata.namespace, `${claim.metadata.name}-network-policy`);
    if (!policy || !refersTo(controllerOf(policy), "SandboxClaim") || controllerOf(policy)?.uid !== claim.metadata.uid) return;
    this.store.delete(NETWORK_POLICIES, claim.metadata.namespace, policy.metadata.name, { preconditions: { uid: policy.metadata.uid } });
  }
}

const warmPoolOf = (claim: KubeObject) => String(record(record(claim.spec).warmPoolRef).name ?? "");
const sandboxNameOf = (claim: KubeObject) => String(record(record(claim.status).sandbox).name ?? "");
const hasClaimExpired = (claim: KubeObject) => findCondition(claim, "Ready")?.reason === "ClaimExpired";
const podIPsOf = (sandbox: KubeObject): unknown[] => {
  const ips = record(sandbox.status).podIPs;
  return Array.isArray(ips) ? ips : [];
};

/** verifySandboxCandidate: why a Sandbox cannot be handed to this claim, if it cannot. */
function candidateProblem(sandbox: StoredObject, claim: StoredObject): string | undefined {
  if (sandbox.metadata.namespace !== claim.metadata.namespace) return "cross-namespace adoption forbidden";
  if (sandbox.metadata.deletionTimestamp) return "sandbox is deleted";
  if (sandbox.metadata.labels?.[WARM_POOL_LABEL] === undefined) return "sandbox is missing the warm pool sandbox label";
  if (sandbox.metadata.labels?.[TEMPLATE_REF_HASH_LABEL] === undefined) return "sandbox is missing the sandbox template ref hash label";
  const owner = controllerOf(sandbox);
  if (!refersTo(owner, "SandboxWarmPool")) return "sandbox is not managed by warm pool";
  if (owner.name !== warmPoolOf(claim)) return `incorrect warm pool, expected ${warmPoolOf(claim)}`;
  return undefined;
}

/**
 * The order the claim controller's queue hands candidates out: oldest first, but a scheduled one
 * on the node holding the most candidates before the rest (pickSmart), so pools drain node by node.
 */
function candidateOrder(candidates: StoredObject[]): StoredObject[] {
  const remaining = [...candidates].sort((a, b) => String(a.metadata.creationTimestamp).localeCompare(String(b.metadata.creationTimestamp)) || a.metadata.name.localeCompare(b.metadata.name));
  const ordered: StoredObject[] = [];
  const nodeOf = (sandbox: StoredObject) => String(record(sandbox.status).nodeName ?? "");
  while (remaining.length > 0) {
    const counts = new Map<string, number>();
    for (const sandbox of remaining) if (nodeOf(sandbox)) counts.set(nodeOf(sandbox), (counts.get(nodeOf(sandbox)) ?? 0) + 1);
    const most = Math.max(0, ...counts.values());
    const index = most > 0 ? remaining.findIndex((sandbox) => nodeOf(sandbox) && counts.get(nodeOf(sandbox)) === most) : 0;
    ordered.push(...remaining.splice(index, 1));
  }
  return ordered;
}

/** validateAdditionalPodMetadata: labels only in the allowed domains, no system annotations, valid keys and values. */
function validateAdditionalPodMetadata(claim: KubeObject): string | undefined {
  const extra = record(record(claim.spec).additionalPodMetadata);
  const check = (key: string, value: string, isLabel: boolean): string | undefined => {
    const keyErrors = labelKeyErrors(key);
    if (keyErrors.length > 0) return `invalid ${isLabel ? "label" : "annotation"} key: ${quoted(key)}: ${keyErrors.join("; ")}`;
    if (isLabel && key.toLowerCase() === "app" && value.toLowerCase() === "sandbox-router") {
      return `restricted system label value: ${quoted(key)}=${quoted(value)} is not allowed in AdditionalPodMetadata`;
    }
    const slash = key.indexOf("/");
    const domain = slash === -1 ? "" : key.slice(0, slash).toLowerCase();
    if (slash === -1 && isLabel) return `label ${quoted(key)} must have a domain prefix (e.g. 'sandbox.users.io/my-label') to prevent opting into unintended policy domains`;
    const within = (domains: string[]) => domains.some((one) => domain === one || domain.endsWith(`.${one}`));
    if (isLabel && !within(ALLOWED_LABEL_DOMAINS)) return `label domain ${quoted(domain)} is not in the allowlist`;
    if (!isLabel && within(RESTRICTED_DOMAINS) && key !== SAFE_TO_EVICT_ANNOTATION) return `restricted system domain: ${quoted(key)} is not allowed in AdditionalPodMetadata`;
    if (isLabel) {
      const valueErrors = labelValueErrors(value);
      if (valueErrors.length > 0) return `invalid label value: ${quoted(value)} does not match allowed pattern: ${valueErrors.join("; ")}`;
    }
    return undefined;
  };
  for (const [key, value] of Object.entries(strings(extra.labels))) {
    const problem = check(key, value, true);
    if (problem) return `failed to validate label ${quoted(key)}: ${problem}`;
  }
  for (const [key, value] of Object.entries(strings(extra.annotations))) {
    const problem = check(key, value, false);
    if (problem) return `failed to validate annotation ${quoted(key)}: ${problem}`;
  }
  return undefined;
}

/** mergePodMetadata: the claim's additionalPodMetadata added to the pod's, refusing to change a value the template set. */
function mergePodMetadata(podMetadata: Record<string, unknown>, claim: KubeObject): string | undefined {
  const extra = record(record(claim.spec).additionalPodMetadata);
  for (const field of ["labels", "annotations"] as const) {
    const theirs = strings(podMetadata[field]);
    for (const [key, value] of Object.entries(strings(extra[field]))) {
      if (theirs[key] !== undefined && theirs[key] !== value) {
        return `metadata override conflict: ${field === "labels" ? "label" : "annotation"} ${quoted(key)} is defined in template with value ${quoted(theirs[key])}, but claim requests ${quoted(value)}`;
      }
    }
    if (Object.keys(strings(extra[field])).length > 0) podMetadata[field] = { ...theirs, ...strings(extra[field]) };
  }
  return undefined;
}

/** mergeVolumeClaimTemplates under the template's volumeClaimTemplatesPolicy, or why not. */
function mergeVolumeClaimTemplates(fromTemplate: Record<string, unknown>[], fromClaim: Record<string, unknown>[], policy: string): Record<string, unknown>[] | string {
  const nameOf = (template: Record<string, unknown>) => String(record(template.metadata).name ?? "");
  const invalid = (templates: Record<string, unknown>[]) => {
    const seen = new Set<string>();
    for (const [index, template] of templates.entries()) {
      if (!nameOf(template)) return `invalid volume claim templates: name at index ${index} is empty`;
      if (seen.has(nameOf(template))) return `invalid volume claim templates: duplicate name ${quoted(nameOf(template))}`;
      seen.add(nameOf(template));
    }
    return undefined;
  };
  const templateProblem = invalid(fromTemplate);
  if (fromClaim.length === 0) return templateProblem ? `invalid volume claim templates in template: ${templateProblem}` : clone(fromTemplate);
  if (templateProblem) return `failed to merge volume claim templates: template: ${templateProblem}`;
  const claimProblem = invalid(fromClaim);
  if (claimProblem) return `failed to merge volume claim templates: claim: ${claimProblem}`;
  switch (policy) {
    case "":
    case "Disallowed":
      return "failed to merge volume claim templates: volume claim templates are disallowed by the template";
    case "Allowed": {
      const clash = fromClaim.find((template) => fromTemplate.some((one) => nameOf(one) === nameOf(template)));
      if (clash) return `failed to merge volume claim templates: overriding volume claim templates is forbidden by the template: cannot override template volume ${quoted(nameOf(clash))}`;
      return clone([...fromTemplate, ...fromClaim]);
    }
    case "Overrides": {
      const overrides = new Map(fromClaim.map((template) => [nameOf(template), template]));
      const merged = fromTemplate.map((template) => overrides.get(nameOf(template)) ?? template);
      return clone([...merged, ...fromClaim.filter((template) => !fromTemplate.some((one) => nameOf(one) === nameOf(template)))]);
    }
    default:
      return `failed to merge volume claim templates: unknown volume claim templates policy ${quoted(policy)}`;
  }
}

/** The claim's env: unnamed ones to the first container, named ones to theirs, as the template's policy allows. */
function injectEnv(podSpec: Record<string, unknown>, env: unknown, policy: string): ClaimError | undefined {
  const wanted = Array.isArray(env) ? env.map(record) : [];
  if (wanted.length === 0) return undefined;
  if (policy !== "Allowed" && policy !== "Overrides") {
    return new ClaimError("EnvVarsInjectionRejected", "environment variable injection rejected: environment variable injection is not allowed by the template policy");
  }
  const containers = Array.isArray(podSpec.containers) ? podSpec.containers.map(record) : [];
  const initContainers = Array.isArray(podSpec.initContainers) ? podSpec.initContainers.map(record) : [];
  const names = new Set([...initContainers, ...containers].map((container) => String(container.name)));
  const missing = wanted.find((one) => one.containerName && !names.has(String(one.containerName)));
  if (missing) return new ClaimError("ReconcilerError", `target container ${quoted(String(missing.containerName))} not found in template for environment variable ${quoted(String(missing.name))}`);
  const inject = (container: Record<string, unknown>, vars: Record<string, unknown>[]): ClaimError | undefined => {
    if (vars.length === 0) return undefined;
    if (policy === "Allowed" && Array.isArray(container.envFrom) && container.envFrom.length > 0) {
      return new ClaimError(
        "EnvVarsInjectionRejected",
        `environment variable injection rejected: container ${quoted(String(container.name))} uses EnvFrom sources; Allowed policy cannot safely prevent overriding EnvFrom-provided variables`,
      );
    }
    const current = Array.isArray(container.env) ? container.env.map(record) : [];
    for (const one of vars) {
      const entry = { name: String(one.name), value: String(one.value ?? "") };
      const index = current.findIndex((existing) => existing.name === entry.name);
      if (index === -1) current.push(entry);
      else if (policy !== "Overrides") return new ClaimError("ReconcilerError", `environment variable override is not allowed by the template policy for variable ${quoted(entry.name)}`);
      else current[index] = entry;
    }
    container.env = current;
    return undefined;
  };
  for (const container of initContainers) {
    const problem = inject(container, wanted.filter((one) => one.containerName === container.name));
    if (problem) return problem;
  }
  for (const [index, container] of containers.entries()) {
    const vars = [...wanted.filter((one) => one.containerName && one.containerName === container.name), ...(index === 0 ? wanted.filter((one) => !one.containerName) : [])];
    const problem = inject(container, vars);
    if (problem) return problem;
  }
  if (initContainers.length > 0) podSpec.initContainers = initContainers;
  podSpec.containers = containers;
  return undefined;
}
