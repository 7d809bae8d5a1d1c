import type { Clock } from "../clock.ts";
import { labelSelectorFromObject, SelectorError, type MetaLabelSelector, type Selector } from "../api/selectors/index.ts";
import { conditions, controllerOf, findCondition, isPodReady, keyOf, podPhase, record, refs, splitKey, status, timestamp, type Condition } from "../k8s-objects.ts";
import { clone, isRecord, type KubeObject, type StoredObject } from "../objects.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import type { EventRecorder } from "./event-recorder.ts";
import { resourceOfOwner } from "./owner-index.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";

// The disruption controller (pkg/controller/disruption): the status of every policy/v1
// PodDisruptionBudget — expectedPods, currentHealthy, desiredHealthy, disruptionsAllowed, the
// disruptedPods the Eviction API recorded (forgotten after DeletionTimeout), the
// DisruptionAllowed condition and observedGeneration — recomputed whenever the budget or a pod
// it selects changes. It also resets a DisruptionTarget condition left on a pod that was never
// deleted. The derivations are pure functions; the reconciler reads, derives and writes.

/** How long an eviction's disruptedPods entry waits for the pod to be marked for deletion. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;
/** How long a DisruptionTarget condition may sit on a pod that is not being deleted. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60_000;

const COMPONENT = "controllermanager";

// --- PodDisruptionBudget shapes ---------------------------------------------------------------

export interface BudgetCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface BudgetStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: BudgetCondition[];
}

const integer = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? Math.trunc(value) : 0);

/** The budget's status as stored, with absent fields read as Go's zero values. */
export function budgetStatus(pdb: KubeObject): BudgetStatus {
  const raw = record(pdb.status);
  const disrupted = isRecord(raw.disruptedPods) ? (raw.disruptedPods as Record<string, string>) : undefined;
  return {
    observedGeneration: integer(raw.observedGeneration),
    ...(disrupted && Object.keys(disrupted).length > 0 ? { disruptedPods: { ...disrupted } } : {}),
    disruptionsAllowed: integer(raw.disruptionsAllowed),
    currentHealthy: integer(raw.currentHealthy),
    desiredHealthy: integer(raw.desiredHealthy),
    expectedPods: integer(raw.expectedPods),
    ...(Array.isArray(raw.conditions) ? { conditions: (raw.conditions as BudgetCondition[]).map((condition) => ({ ...condition })) } : {}),
  };
}

/** The status in the field order the API server writes it (observedGeneration, disruptedPods, …). */
function orderedStatus(status: BudgetStatus): BudgetStatus {
  return {
    ...(status.observedGeneration ? { observedGeneration: status.observedGeneration } : {}),
    ...(status.disruptedPods && Object.keys(status.disruptedPods).length > 0 ? { disruptedPods: status.disruptedPods } : {}),
    disruptionsAllowed: status.disruptionsAllowed,
    currentHealthy: status.currentHealthy,
    desiredHealthy: status.desiredHealthy,
    expectedPods: status.expectedPods,
    ...(status.conditions && status.conditions.length > 0 ? { conditions: status.conditions } : {}),
  };
}

/** metav1 SetStatusCondition: lastTransitionTime moves only with the status. */
function setBudgetCondition(status: BudgetStatus, wanted: Omit<BudgetCondition, "lastTransitionTime">, now: string): void {
  const conditions = status.conditions ?? [];
  const existing = conditions.find((condition) => condition.type === wanted.type);
  if (!existing) {
    conditions.push({ type: wanted.type, status: wanted.status, observedGeneration: wanted.observedGeneration, lastTransitionTime: now, reason: wanted.reason, message: wanted.message });
  } else {
    if (existing.status !== wanted.status) {
      existing.status = wanted.status;
      existing.lastTransitionTime = now;
    }
    existing.reason = wanted.reason;
    existing.message = wanted.message;
    existing.observedGeneration = wanted.observedGeneration;
  }
  status.conditions = conditions;
}

/** pdbhelper.UpdateDisruptionAllowedCondition. */
export function updateDisruptionAllowedCondition(status: BudgetStatus, now: string): void {
  setBudgetCondition(
    status,
    status.disruptionsAllowed > 0
      ? { type: "DisruptionAllowed", status: "True", reason: "SufficientPods", message: "", observedGeneration: status.observedGeneration }
      : { type: "DisruptionAllowed", status: "False", reason: "InsufficientPods", message: "", observedGeneration: status.observedGeneration },
    now,
  );
}

/** pdbhelper.ConditionsAreUpToDate. */
function conditionsAreUpToDate(status: BudgetStatus, generation: number): boolean {
  const condition = status.conditions?.find((one) => one.type === "DisruptionAllowed");
  if (!condition || status.observedGeneration !== generation) return false;
  return status.disruptionsAllowed > 0
    ? condition.status === "True" && condition.reason === "SufficientPods"
    : condition.status === "False" && condition.reason === "InsufficientPods";
}

/**
 * The budget's selector as metav1.LabelSelectorAsSelector reads it: null selects nothing, {}
 * everything (policy/v1). Throws a SelectorError for an invalid selector.
 */
export function budgetSelector(pdb: KubeObject): Selector {
  const selector = record(pdb.spec).selector;
  return labelSelectorFromObject(isRecord(selector) ? (selector as MetaLabelSelector) : null);
}

/** The selector, or undefined when it is invalid (an invalid selector matches no pod). */
export function budgetSelectorOrNothing(pdb: KubeObject): Selector | undefined {
  try {
    return budgetSelector(pdb);
  } catch (error) {
    if (error instanceof SelectorError) return undefined;
    throw error;
  }
}

/** metav1.LabelSelector's generated String(), as the controller's events print it. */
export function describeLabelSelector(selector: unknown): string {
  if (!isRecord(selector)) return "nil";
  const matchLabels = isRecord(selector.matchLabels) ? (selector.matchLabels as Record<string, string>) : {};
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.map(record) : [];
  const labels = Object.keys(matchLabels).sort().map((key) => `${key}: ${matchLabels[key]},`).join("");
  const requirements = expressions
    .map((expression) => `LabelSelectorRequirement{Key:${String(expression.key ?? "")},Operator:${String(expression.operator ?? "")},Values:[${(Array.isArray(expression.values) ? expression.values : []).join(" ")}],},`)
    .join("");
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${requirements}},}`;
}

/** intstr.GetScaledValueFromIntOrPercent(value, total, roundUp=true). Throws with the real message. */
export function scaledValue(value: unknown, total: number): number {
  if (typeof value === "number") return Math.trunc(value);
  if (typeof value !== "string") throw new Error("invalid value for IntOrString: invalid type: neither int nor percentage");
  if (!value.endsWith("%")) throw new Error("invalid value for IntOrString: invalid type: string is not a percentage");
  const digits = value.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits)) throw new Error(`invalid value for IntOrString: invalid value "${value}": strconv.Atoi: parsing "${digits}": invalid syntax`);
  return Math.ceil((Number(digits) * total) / 100);
}

// --- the derivation ---------------------------------------------------------------------------

/** The scale of the controller of a pod (its uid and replicas), or why it cannot be found. */
export type ScaleLookup = (pod: StoredObject) => { uid: string; scale: number } | { error: string };

export interface ExpectedCount {
  expectedCount: number;
  desiredHealthy: number;
  unmanagedPods: string[];
}

/** getExpectedScale: the sum of the scales of the pods' controllers. */
function expectedScale(pods: StoredObject[], scaleOf: ScaleLookup): { expectedCount: number; unmanagedPods: string[] } {
  const scales = new Map<string, number>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    const controller = controllerOf(pod);
    if (!controller) {
      unmanagedPods.push(pod.metadata.name);
      continue;
    }
    if (scales.has(controller.uid)) continue;
    const found = scaleOf(pod);
    if ("error" in found) throw new Error(found.error);
    scales.set(found.uid, found.scale);
  }
  let expectedCount = 0;
  for (const scale of scales.values()) expectedCount += scale;
  return { expectedCount, unmanagedPods };
}

/** getExpectedPodCount. Throws an Error whose message the controller reports. */
export function expectedPodCount(pdb: KubeObject, pods: StoredObject[], scaleOf: ScaleLookup): ExpectedCount {
  const spec = record(pdb.spec);
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const { expectedCount, unmanagedPods } = expectedScale(pods, scaleOf);
    const maxUnavailable = scaledValue(spec.maxUnavailable, expectedCount);
    return { expectedCount, desiredHealthy: Math.max(0, expectedCount - maxUnavailable), unmanagedPods };
  }
  if (typeof spec.minAvailable === "number") return { expectedCount: pods.length, desiredHealthy: Math.trunc(spec.minAvailable), unmanagedPods: [] };
  if (typeof spec.minAvailable === "string") {
    const { expectedCount, unmanagedPods } = expectedScale(pods, scaleOf);
    return { expectedCount, desiredHealthy: scaledValue(spec.minAvailable, expectedCount), unmanagedPods };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

export interface DisruptedPodMap {
  disruptedPods: Record<string, string>;
  /** Pods whose entry expired without their being marked for deletion. */
  expired: StoredObject[];
  /** When an entry expires next (ms since the epoch). */
  recheckAtMs?: number;
}

/** buildDisruptedPodMap: entries for pods still there, not being deleted, not yet expired. */
export function buildDisruptedPodMap(pdb: KubeObject, pods: StoredObject[], nowMs: number): DisruptedPodMap {
  const recorded = budgetStatus(pdb).disruptedPods ?? {};
  const disruptedPods: Record<string, string> = {};
  const expired: StoredObject[] = [];
  let recheckAtMs: number | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = recorded[pod.metadata.name];
    if (at === undefined) continue;
    const expectedDeletion = Date.parse(at) + DELETION_TIMEOUT_MS;
    if (expectedDeletion < nowMs) {
      expired.push(pod);
    } else {
      if (recheckAtMs === undefined || expectedDeletion < recheckAtMs) recheckAtMs = expectedDeletion;
      disruptedPods[pod.metadata.name] = at;
    }
  }
  return { disruptedPods, expired, ...(recheckAtMs !== undefined ? { recheckAtMs } : {}) };
}

/** countHealthyPods: Ready, not being deleted, not about to be (a live disruptedPods entry). */
export function countHealthyPods(pods: StoredObject[], disruptedPods: Record<string, string>, nowMs: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = disruptedPods[pod.metadata.name];
    if (at !== undefined && Date.parse(at) + DELETION_TIMEOUT_MS > nowMs) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/**
 * updatePdbStatus: the status to write, or undefined when the stored one is already right.
 * disruptionsAllowed is 0 while no pod is expected, so a budget whose pods are not counted yet
 * is safe.
 */
export function nextBudgetStatus(
  pdb: StoredObject,
  counts: { currentHealthy: number; desiredHealthy: number; expectedCount: number; disruptedPods: Record<string, string> },
  now: string,
): BudgetStatus | undefined {
  const current = budgetStatus(pdb);
  const generation = pdb.metadata.generation ?? 1;
  let disruptionsAllowed = counts.currentHealthy - counts.desiredHealthy;
  if (counts.expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  const sameDisrupted = JSON.stringify(sortedEntries(current.disruptedPods ?? {})) === JSON.stringify(sortedEntries(counts.disruptedPods));
  if (
    current.currentHealthy === counts.currentHealthy &&
    current.desiredHealthy === counts.desiredHealthy &&
    current.expectedPods === counts.expectedCount &&
    current.disruptionsAllowed === disruptionsAllowed &&
    sameDisrupted &&
    current.observedGeneration === generation &&
    conditionsAreUpToDate(current, generation)
  ) {
    return undefined;
  }
  const next: BudgetStatus = {
    observedGeneration: generation,
    disruptedPods: counts.disruptedPods,
    disruptionsAllowed,
    currentHealthy: counts.currentHealthy,
    desiredHealthy: counts.desiredHealthy,
    expectedPods: counts.expectedCount,
    conditions: current.conditions,
  };
  updateDisruptionAllowedCondition(next, now);
  return orderedStatus(next);
}

/** failSafe: when the status cannot be computed, allow no disruption and say why. */
export function failSafeStatus(pdb: StoredObject, message: string, now: string): BudgetStatus {
  const next = budgetStatus(pdb);
  next.disruptionsAllowed = 0;
  setBudgetCondition(next, { type: "DisruptionAllowed", status: "False", reason: "SyncFailed", message, observedGeneration: next.observedGeneration }, now);
  return orderedStatus(next);
}

/** Writes a budget's status as the status subresource does: nothing else changes. */
export function writeBudgetStatus(store: ObjectStore, pdb: StoredObject, status: BudgetStatus): StoredObject {
  const next = clone(pdb);
  next.status = orderedStatus(status);
  return store.update(refs.budgets, next);
}

function sortedEntries(map: Record<string, string>): [string, string][] {
  return Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** nonTerminatingPodHasStaleDisruptionCondition: how long until the condition is stale, if it can be. */
export function staleDisruptionConditionIn(pod: StoredObject, nowMs: number): number | undefined {
  if (pod.metadata.deletionTimestamp) return undefined;
  const condition = findCondition(pod, "DisruptionTarget");
  const phase = podPhase(pod);
  if (!condition || condition.status !== "True" || condition.reason === "TerminationByKubelet" || phase === "Succeeded" || phase === "Failed") return undefined;
  const since = condition.lastTransitionTime ? Date.parse(condition.lastTransitionTime) : nowMs;
  return Math.max(0, STALE_POD_DISRUPTION_TIMEOUT_MS - (nowMs - since));
}

// --- label indexes ----------------------------------------------------------------------------

/** A selector's first requirement pinning a key to one value: the label it is indexed under. */
function pinnedLabel(selector: Selector): string | undefined {
  for (const requirement of selector.requirements) {
    const value = selector.requiresExactMatch(requirement.key);
    if (value !== undefined) return `${requirement.key}=${value}`;
  }
  return undefined;
}

const labelPairs = (labels: Record<string, string> | undefined) => Object.entries(labels ?? {}).map(([key, value]) => `${key}=${value}`);

class SetMap {
  private readonly map = new Map<string, Set<string>>();

  add(key: string, value: string): void {
    let set = this.map.get(key);
    if (!set) this.map.set(key, (set = new Set()));
    set.add(value);
  }

  remove(key: string, value: string): void {
    const set = this.map.get(key);
    if (!set) return;
    set.delete(value);
    if (set.size === 0) this.map.delete(key);
  }

  get(key: string): ReadonlySet<string> {
    return this.map.get(key) ?? new Set();
  }

  clear(): void {
    this.map.clear();
  }
}

interface IndexedBudget {
  namespace: string;
  name: string;
  selector: Selector | undefined;
  pinned: string | undefined;
}

/**
 * Budgets by namespace and pinned label, pods by namespace and label: which budgets a pod
 * change concerns and which pods a budget selects, without scanning every pod or budget.
 */
class SelectionIndex {
  private readonly budgets = new Map<string, IndexedBudget>();
  private readonly budgetsByLabel = new SetMap();
  private readonly unpinnedBudgets = new SetMap();
  private readonly podsByLabel = new SetMap();
  private readonly podsByNamespace = new SetMap();
  ready = false;

  rebuild(store: ObjectStore): void {
    this.budgets.clear();
    this.budgetsByLabel.clear();
    this.unpinnedBudgets.clear();
    this.podsByLabel.clear();
    this.podsByNamespace.clear();
    for (const pdb of store.list(refs.budgets)) this.addBudget(pdb);
    for (const pod of store.list(refs.pods)) this.addPod(pod);
    this.ready = true;
  }

  addBudget(pdb: StoredObject): void {
    const key = keyOf(pdb);
    this.removeBudget(key);
    const selector = budgetSelectorOrNothing(pdb);
    const namespace = pdb.metadata.namespace ?? "";
    const pinned = selector && !selector.matchesNothing ? pinnedLabel(selector) : undefined;
    this.budgets.set(key, { namespace, name: pdb.metadata.name, selector, pinned });
    if (pinned) this.budgetsByLabel.add(`${namespace}/${pinned}`, pdb.metadata.name);
    else this.unpinnedBudgets.add(namespace, pdb.metadata.name);
  }

  removeBudget(key: string): void {
    const indexed = this.budgets.get(key);
    if (!indexed) return;
    this.budgets.delete(key);
    if (indexed.pinned) this.budgetsByLabel.remove(`${indexed.namespace}/${indexed.pinned}`, indexed.name);
    else this.unpinnedBudgets.remove(indexed.namespace, indexed.name);
  }

  addPod(pod: StoredObject): void {
    const namespace = pod.metadata.namespace ?? "";
    this.podsByNamespace.add(namespace, pod.metadata.name);
    for (const pair of labelPairs(pod.metadata.labels)) this.podsByLabel.add(`${namespace}/${pair}`, pod.metadata.name);
  }

  removePod(pod: StoredObject): void {
    const namespace = pod.metadata.namespace ?? "";
    this.podsByNamespace.remove(namespace, pod.metadata.name);
    for (const pair of labelPairs(pod.metadata.labels)) this.podsByLabel.remove(`${namespace}/${pair}`, pod.metadata.name);
  }

  /** Keys (namespace/name) of the budgets whose selector matches these labels. */
  budgetsFor(namespace: string, labels: Record<string, string> | undefined): string[] {
    const candidates = new Set<string>(this.unpinnedBudgets.get(namespace));
    for (const pair of labelPairs(labels)) for (const name of this.budgetsByLabel.get(`${namespace}/${pair}`)) candidates.add(name);
    const keys: string[] = [];
    for (const name of candidates) {
      const key = `${namespace}/${name}`;
      if (this.budgets.get(key)?.selector?.matches(labels ?? {})) keys.push(key);
    }
    return keys;
  }

  /** Names of the pods in the namespace that may match the selector (a superset). */
  candidatePods(namespace: string, selector: Selector): ReadonlySet<string> {
    const pinned = pinnedLabel(selector);
    return pinned ? this.podsByLabel.get(`${namespace}/${pinned}`) : this.podsByNamespace.get(namespace);
  }
}

// --- the controller ---------------------------------------------------------------------------

const BUDGET = "budget:";
const POD = "pod:";

export class DisruptionController implements Reconciler {
  readonly name = "disruption";
  private readonly index = new SelectionIndex();

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly recorder?: EventRecorder,
  ) {}

  initialKeys(): string[] {
    this.index.rebuild(this.store);
    const nowMs = this.clock.now().getTime();
    return [
      ...this.store.list(refs.budgets).map((pdb) => BUDGET + keyOf(pdb)),
      ...this.store.list(refs.pods).filter((pod) => staleDisruptionConditionIn(pod, nowMs) !== undefined).map((pod) => POD + keyOf(pod)),
    ];
  }

  keysFor(event: StoreEvent): string[] {
    if (event.resource === "policy/poddisruptionbudgets") {
      if (this.index.ready) {
        if (event.type === "DELETED") this.index.removeBudget(keyOf(event.object));
        else this.index.addBudget(event.object);
      }
      return [BUDGET + keyOf(event.object)];
    }
    if (event.resource !== "pods") return [];
    const { object: pod, previous } = event;
    if (this.index.ready) {
      if (previous) this.index.removePod(previous);
      if (event.type !== "DELETED") this.index.addPod(pod);
    }
    const namespace = pod.metadata.namespace ?? "";
    const keys = new Set(this.index.budgetsFor(namespace, pod.metadata.labels).map((key) => BUDGET + key));
    if (previous && JSON.stringify(previous.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {})) {
      for (const key of this.index.budgetsFor(namespace, previous.metadata.labels)) keys.add(BUDGET + key);
    }
    if (event.type !== "DELETED" && staleDisruptionConditionIn(pod, this.clock.now().getTime()) !== undefined) keys.add(POD + keyOf(pod));
    return [...keys];
  }

  reconcile(key: string): ReconcileResult | void {
    if (key.startsWith(POD)) return this.resetStaleDisruptionCondition(key.slice(POD.length));
    if (key.startsWith(BUDGET)) return this.syncBudget(key.slice(BUDGET.length));
  }

  private podsFor(pdb: StoredObject, selector: Selector): StoredObject[] {
    const namespace = pdb.metadata.namespace ?? "";
    if (selector.matchesNothing) return [];
    const pods: StoredObject[] = [];
    const names = this.index.ready ? [...this.index.candidatePods(namespace, selector)] : this.store.list(refs.pods, namespace).map((pod) => pod.metadata.name);
    for (const name of names) {
      const pod = this.store.peek(refs.pods, namespace, name);
      if (pod && selector.matches(pod.metadata.labels ?? {})) pods.push(pod);
    }
    return pods;
  }

  /** The finders: a pod's controller and its scale. Sandboxes scale to 1, or 0 when suspended. */
  private readonly scaleOf: ScaleLookup = (pod) => {
    const controller = controllerOf(pod)!;
    const definition = resourceOfOwner(controller);
    if (!definition) return { error: `no matches for kind "${controller.kind}" in version "${controller.apiVersion}"` };
    if (definition.group !== refs.sandboxes.group || definition.resource !== refs.sandboxes.resource) {
      return { error: `${definition.group ? `${definition.resource}.${definition.group}` : definition.resource} does not implement the scale subresource` };
    }
    const sandbox = this.store.peek(refs.sandboxes, pod.metadata.namespace, controller.name);
    if (!sandbox || sandbox.metadata.uid !== controller.uid) return { error: `found no controllers for pod "${pod.metadata.name}"` };
    return { uid: sandbox.metadata.uid, scale: record(sandbox.spec).operatingMode === "Suspended" ? 0 : 1 };
  };

  private syncBudget(key: string): ReconcileResult | void {
    const { namespace, name } = splitKey(key);
    const pdb = this.store.peek(refs.budgets, namespace, name);
    if (!pdb) return;
    const now = this.clock.now();
    const nowText = timestamp(now);

    let selector: Selector;
    try {
      selector = budgetSelector(pdb);
    } catch (error) {
      if (!(error instanceof SelectorError)) throw error;
      this.recorder?.record(pdb, "Warning", "NoPods", `Failed to get pods: ${error.message}`, COMPONENT);
      writeBudgetStatus(this.store, pdb, failSafeStatus(pdb, error.message, nowText));
      return;
    }
    const pods = this.podsFor(pdb, selector);
    if (pods.length === 0) this.recorder?.record(pdb, "Normal", "NoPods", "No matching pods found", COMPONENT);

    let expected: ExpectedCount;
    try {
      expected = expectedPodCount(pdb, pods, this.scaleOf);
    } catch (error) {
      const message = (error as Error).message;
      this.recorder?.record(pdb, "Warning", "CalculateExpectedPodCountFailed", `Failed to calculate the number of expected pods: ${message}`, COMPONENT);
      writeBudgetStatus(this.store, pdb, failSafeStatus(pdb, message, nowText));
      return;
    }
    if (expected.unmanagedPods.length > 0) {
      this.recorder?.record(
        pdb,
        "Warning",
        "UnmanagedPods",
        `Pods selected by this PodDisruptionBudget (selector: ${describeLabelSelector(record(pdb.spec).selector)}) were found ` +
          "to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. " +
          'To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
        COMPONENT,
      );
    }

    const { disruptedPods, expired, recheckAtMs } = buildDisruptedPodMap(pdb, pods, now.getTime());
    for (const pod of expired) {
      // The real controller prints the budget's namespace twice here.
      this.recorder?.record(pod, "Warning", "NotDeleted", `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.namespace} to be deleted but it wasn't`, COMPONENT);
    }
    const currentHealthy = countHealthyPods(pods, disruptedPods, now.getTime());
    const next = nextBudgetStatus(pdb, { currentHealthy, desiredHealthy: expected.desiredHealthy, expectedCount: expected.expectedCount, disruptedPods }, nowText);
    if (next) writeBudgetStatus(this.store, pdb, next);
    // An entry expires once its deadline is strictly past: look again just after it.
    if (recheckAtMs !== undefined) return { requeueAfterMs: Math.max(1, recheckAtMs - now.getTime() + 1) };
  }

  /** syncStalePodDisruption: a DisruptionTarget left on a pod nobody deleted goes back to False. */
  private resetStaleDisruptionCondition(key: string): ReconcileResult | void {
    const { namespace, name } = splitKey(key);
    const pod = this.store.peek(refs.pods, namespace, name);
    if (!pod) return;
    const now = this.clock.now();
    const waitMs = staleDisruptionConditionIn(pod, now.getTime());
    if (waitMs === undefined) return;
    if (waitMs > 0) return { requeueAfterMs: waitMs };
    // podutil.UpdatePodCondition with a bare {DisruptionTarget, False}: reason and message go.
    const next = clone(pod);
    const reset: Condition = { type: "DisruptionTarget", status: "False", lastProbeTime: null, lastTransitionTime: timestamp(now) };
    status(next).conditions = conditions(next).map((condition) => (condition.type === "DisruptionTarget" ? reset : condition));
    this.store.update(refs.pods, next);
  }
}
