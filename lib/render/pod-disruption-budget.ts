import { berthLabelKeys, sandboxLabels } from "../domain/labels.ts";
import type { PodDisruptionBudgetManifest } from "./manifests.ts";

export function podDisruptionBudgetName(sandboxName: string): string {
  return `${sandboxName}-disruption-budget`;
}

/**
 * Eviction protection: with minAvailable 1 on a single pod, disruptionsAllowed is 0, so the
 * Eviction API answers 429 and a drain waits instead of taking the sandbox down. It does not
 * stop deletions or node loss. The selector uses Berth's sandbox-id label, which the pod
 * template carries, so it matches every pod the controller creates for this sandbox.
 */
export function renderPodDisruptionBudget(input: {
  sandboxName: string;
  namespace: string;
  sandboxId: string;
  labelPrefix: string;
  /**
   * The pods' labels, for a sandbox whose pod template Berth did not render for it (one handed
   * out from a template's pool carries the controller's name-hash label, not Berth's id).
   */
  podSelector?: Record<string, string>;
}): PodDisruptionBudgetManifest {
  const labels = sandboxLabels(input.labelPrefix, input.sandboxId);
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: podDisruptionBudgetName(input.sandboxName), namespace: input.namespace, labels },
    spec: {
      minAvailable: 1,
      selector: { matchLabels: input.podSelector ?? { [berthLabelKeys(input.labelPrefix).sandboxId]: input.sandboxId } },
    },
  };
}
