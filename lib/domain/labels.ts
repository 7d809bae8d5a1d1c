import { z } from "zod";
import { DNS1123_SUBDOMAIN_MAX } from "./kubernetes-names.ts";
import { report, type RuleProblem } from "./problems.ts";
import type { ClaimOwnership } from "./workspace.ts";

// Labels: Berth's own on everything it renders (the keys live here, not in the renderer, because
// the lifecycle service and the reconciler select by the very same keys), and the ones a person
// gives a sandbox to find it by (`berth get sandboxes -l team=ml`), checked as Kubernetes checks
// them.

export const MANAGED_BY_BERTH = "berth";

export function berthLabelKeys(labelPrefix: string) {
  return {
    managedBy: `${labelPrefix}/managed-by`,
    sandboxId: `${labelPrefix}/sandbox-id`,
    sandboxName: `${labelPrefix}/sandbox-name`,
    claimOwnership: `${labelPrefix}/claim-ownership`,
    template: `${labelPrefix}/template`,
  };
}

/**
 * On the pod template of a template whose sandboxes ask for eviction protection. agent-sandbox
 * copies the pod template into every Sandbox of the template, so the Sandbox itself says what it
 * was made to want, whatever the template says later; Berth makes the budget once it is handed out.
 */
export const evictionProtectionAnnotation = (labelPrefix: string) => `${labelPrefix}/eviction-protection`;

/** The labels of a sandbox's Sandbox, pod and PodDisruptionBudget. */
export function sandboxLabels(labelPrefix: string, sandboxId: string): Record<string, string> {
  const keys = berthLabelKeys(labelPrefix);
  return { [keys.managedBy]: MANAGED_BY_BERTH, [keys.sandboxId]: sandboxId };
}

/** The labels of a template's SandboxTemplate, its warm pool, and the pods made from it. */
export function templateLabels(labelPrefix: string, templateName: string): Record<string, string> {
  const keys = berthLabelKeys(labelPrefix);
  return { [keys.managedBy]: MANAGED_BY_BERTH, [keys.template]: templateName };
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

// IsQualifiedName: an optional DNS-subdomain prefix and "/", then a name of 1–63 characters.
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_PREFIX = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function isLabelKey(key: string): boolean {
  const parts = key.split("/");
  if (parts.length > 2) return false;
  const name = parts.at(-1)!;
  const prefix = parts.length === 2 ? parts[0]! : null;
  if (prefix !== null && (prefix.length > DNS1123_SUBDOMAIN_MAX || !LABEL_PREFIX.test(prefix))) return false;
  return name.length <= 63 && QUALIFIED_NAME.test(name);
}

/** The domains Kubernetes, agent-sandbox and Berth keep for their own labels. */
function reservedBy(key: string, berthPrefix: string): string | null {
  const prefix = key.includes("/") ? key.split("/")[0]! : null;
  if (prefix === null) return null;
  if (prefix === berthPrefix) return "Berth";
  // app.kubernetes.io is Kubernetes' set of recommended labels, meant for everyone's objects.
  if (prefix !== "app.kubernetes.io" && /(^|\.)(kubernetes\.io|k8s\.io)$/.test(prefix)) return "Kubernetes";
  if (prefix === "agents.x-k8s.io" || prefix.endsWith(".agents.x-k8s.io")) return "agent-sandbox";
  return null;
}

export const MAX_USER_LABELS = 32;

/** A person's labels on a sandbox: on its Sandbox and its pod, Berth's own added beside them. */
export const userLabelsSchema = z.record(z.string(), z.string()).superRefine((labels, ctx) => {
  const keys = Object.keys(labels);
  if (keys.length > MAX_USER_LABELS) report(ctx, "limit.too-many", [], `labels can have at most ${MAX_USER_LABELS} entries; this has ${keys.length}`);
  for (const key of keys) {
    if (!isLabelKey(key)) {
      report(ctx, "labels.invalid-key", [key], `label key ${JSON.stringify(key)} must be a name of at most 63 letters, digits, '-', '_' or '.' that starts and ends with a letter or digit, optionally after a DNS prefix and '/' (e.g. 'team' or 'example.com/team')`);
    } else if (!isLabelValue(labels[key]!)) {
      report(ctx, "labels.invalid-value", [key], `label ${key}'s value must be at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, or empty`);
    }
  }
});
export type UserLabels = z.infer<typeof userLabelsSchema>;

/** Keys a person may not set: found once the gateway's label prefix is known (validateSandboxSpec). */
export function reservedLabelProblems(labels: UserLabels | undefined, berthPrefix: string): RuleProblem[] {
  return Object.keys(labels ?? {}).flatMap((key) => {
    const owner = reservedBy(key, berthPrefix);
    return owner ? [{ code: "labels.reserved-key" as const, path: ["labels", key], message: `label ${key} is in a domain ${owner} keeps for itself: use a key of your own, e.g. 'example.com/${key.split("/")[1]}'` }] : [];
  });
}

/** The person's labels of a stored sandbox spec (none when it has none). */
export function userLabelsOf(spec: Record<string, unknown>): UserLabels {
  const parsed = userLabelsSchema.safeParse(spec.labels);
  return parsed.success ? parsed.data : {};
}
