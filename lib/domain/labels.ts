import type { ClaimOwnership } from "./workspace.ts";

// Berth's labels on everything it renders. The keys live here, not in the renderer, because
// the lifecycle service and the reconciler select by the very same keys.

export const MANAGED_BY_BERTH = "berth";

export function berthLabelKeys(labelPrefix: string) {
  return {
    managedBy: `${labelPrefix}/managed-by`,
    sandboxId: `${labelPrefix}/sandbox-id`,
    sandboxName: `${labelPrefix}/sandbox-name`,
    claimOwnership: `${labelPrefix}/claim-ownership`,
  };
}

/** The labels of a sandbox's Sandbox, pod and PodDisruptionBudget. */
export function sandboxLabels(labelPrefix: string, sandboxId: string): Record<string, string> {
  const keys = berthLabelKeys(labelPrefix);
  return { [keys.managedBy]: MANAGED_BY_BERTH, [keys.sandboxId]: sandboxId };
}

/** The labels of a claim Berth creates; the ownership label is what the sweeper obeys. */
export function claimLabels(
  labelPrefix: string,
  sandbox: { id: string; name: string },
  ownership: Exclude<ClaimOwnership, "template">,
): Record<string, string> {
  const keys = berthLabelKeys(labelPrefix);
  return {
    [keys.managedBy]: MANAGED_BY_BERTH,
    [keys.sandboxId]: sandbox.id,
    [keys.sandboxName]: sandbox.name,
    [keys.claimOwnership]: ownership,
  };
}

// k8s.io/apimachinery IsValidLabelValue.
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export function isLabelValue(value: string): boolean {
  return value.length <= 63 && LABEL_VALUE.test(value);
}
