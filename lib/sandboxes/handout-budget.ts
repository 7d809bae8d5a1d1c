import { berthLabelKeys } from "../domain/labels.ts";
import { handoutOf, podSelectorOf, protectionAskedAtHandout } from "../domain/sandbox-handout.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { recordTimelineEvent } from "../events/record-timeline-event.ts";
import { KubeApiError } from "../kube/kube-errors.ts";
import type { SandboxResources } from "../kube/sandbox-resources.ts";
import { withOwner } from "../render/owner-reference.ts";
import { renderPodDisruptionBudget } from "../render/pod-disruption-budget.ts";
import type { Store, WriterFence } from "../store/index.ts";
import type { SandboxObject } from "./sandbox-watches.ts";

// A template's sandboxes are made by agent-sandbox, not by Berth, so the PodDisruptionBudget a
// Berth-made sandbox gets at its create comes to them at the hand-out instead: once the Sandbox
// belongs to a claim and its template asked for eviction protection, the elected writer makes
// the budget (as Berth's service account, which keeps every protected sandbox's budget),
// selecting the pods by the labels agent-sandbox reports. Level-triggered: a budget deleted by
// hand comes back at the next look, as a create's would not.

export interface HandoutBudgetDeps {
  resources: Pick<SandboxResources, "createBudget">;
  store: Store;
  labelPrefix: string;
  now: () => Date;
  fence?: WriterFence;
}

/** True when it made the budget; false when none is asked for, the pods' labels are not known yet, or it is there. */
export async function protectHandedOutSandbox(deps: HandoutBudgetDeps, record: SandboxRecord, sandbox: SandboxObject | undefined, hasBudget: boolean): Promise<boolean> {
  if (hasBudget || !sandbox || sandbox.metadata.deletionTimestamp || !protectionAskedAtHandout(sandbox, deps.labelPrefix)) return false;
  // Before its first pod the Sandbox reports no selector; its status change brings it back here.
  const podSelector = podSelectorOf(sandbox);
  if (!podSelector) return false;
  const budget = renderPodDisruptionBudget({ sandboxName: record.name, namespace: record.namespace, sandboxId: record.id, labelPrefix: deps.labelPrefix, podSelector });
  try {
    await deps.resources.createBudget(withOwner(budget, sandbox));
  } catch (error) {
    // Made at an earlier look that the budget watch has not brought yet.
    if (error instanceof KubeApiError && error.alreadyExists) return false;
    throw error;
  }
  const claim = handoutOf(sandbox)?.claim;
  const template = (sandbox.spec?.podTemplate as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels?.[berthLabelKeys(deps.labelPrefix).template];
  await recordTimelineEvent(deps.store.timeline, {
    sandboxId: record.id,
    type: "Protection",
    reason: "BudgetCreated",
    message: `PodDisruptionBudget ${budget.metadata.name} made at the hand-out to claim ${claim}, as template ${template ?? "(unnamed)"} asks: a drain now waits for this sandbox instead of evicting it`,
    occurredAt: deps.now(),
    data: { budgetName: budget.metadata.name, claim: claim ?? null, template: template ?? null },
  }, { fence: deps.fence, about: record });
  return true;
}
