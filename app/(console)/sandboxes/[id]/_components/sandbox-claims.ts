import { z } from "zod";
import type { GatewayDefaults } from "@/lib/domain/gateway-defaults.ts";
import { resolveWorkspace } from "@/lib/domain/resolve-workspace.ts";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import { sandboxSpecSchema } from "@/lib/domain/sandbox-spec.ts";
import { claimOwnershipSchema, defaultWorkspaceClaimName, WORKSPACE_VOLUME_NAME } from "@/lib/domain/workspace.ts";
import { planClaims } from "@/lib/render/claims.ts";
import { claimUsageSchema, type ClaimUsage } from "@/lib/domain/volume-usage.ts";

// The workspace and the claims a sandbox mounts, read from its stored spec with the gateway's
// defaults — the same resolution create used — so the page can say what a delete will do to
// each claim before anyone asks for it. Pure.

export const sandboxClaimSchema = z.object({
  name: z.string(),
  ownership: claimOwnershipSchema,
  /** Pod volumes that mount it: `workspace`, or the extra volumes' names. */
  mountedBy: z.array(z.string()),
  /** How full it is, where a kubelet measured it; null until the page asks (withClaimUsage). */
  usage: claimUsageSchema.nullable(),
});
export type SandboxClaim = z.infer<typeof sandboxClaimSchema>;

export const sandboxStorageSchema = z.object({
  backend: z.enum(["pvc", "ephemeral"]),
  mountPath: z.string(),
  claims: z.array(sandboxClaimSchema),
});
export type SandboxStorage = z.infer<typeof sandboxStorageSchema>;

export function sandboxStorage(record: Pick<SandboxRecord, "id" | "name" | "namespace" | "spec" | "workspaceBackend">, defaults: GatewayDefaults): SandboxStorage {
  const parsed = sandboxSpecSchema.safeParse(record.spec);
  // A spec that no longer parses (an older Berth wrote it) still has the controller's workspace claim.
  const fallback = { backend: record.workspaceBackend, mountPath: defaults.workspaceMountPath, claims: record.workspaceBackend === "pvc" ? [templateClaim(record.name)] : [] };
  if (!parsed.success) return fallback;
  // The record says which backend the sandbox really got (a found sandbox's spec cannot say).
  const resolved = resolveWorkspace(parsed.data, { ...defaults, workspaceBackend: record.workspaceBackend });
  if (!resolved.ok) return fallback;
  const { workspace } = resolved;
  const plans = planClaims({ namespace: record.namespace, sandbox: { id: record.id, name: record.name }, labelPrefix: defaults.labelPrefix }, workspace, parsed.data.volumes, defaults);
  const claims: SandboxClaim[] = plans.map((plan) => ({ name: plan.name, ownership: plan.ownership, mountedBy: plan.mountedBy, usage: null }));
  if (workspace.backend === "pvc" && workspace.claim.ownership === "template") claims.unshift(templateClaim(record.name));
  return { backend: workspace.backend, mountPath: workspace.mountPath, claims };
}

function templateClaim(sandboxName: string): SandboxClaim {
  return { name: defaultWorkspaceClaimName(sandboxName), ownership: "template", mountedBy: [WORKSPACE_VOLUME_NAME], usage: null };
}

/** The storage with each claim's figures, by claim name. */
export function withClaimUsage(storage: SandboxStorage, usages: ReadonlyMap<string, ClaimUsage>): SandboxStorage {
  return { ...storage, claims: storage.claims.map((claim) => ({ ...claim, usage: usages.get(claim.name) ?? null })) };
}
