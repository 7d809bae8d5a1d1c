import type { GatewayDefaults } from "./gateway-defaults.ts";
import { type GatewayLimits, limitProblems } from "./gateway-limits.ts";
import { reservedLabelProblems } from "./labels.ts";
import { pathsOverlap } from "./mount-paths.ts";
import { type RuleProblem, type SpecProblem, problemsFromZodError } from "./problems.ts";
import { type ResolvedWorkspace, resolveWorkspace } from "./resolve-workspace.ts";
import { type SandboxSpec, sandboxSpecSchema } from "./sandbox-spec.ts";
import { mountClash } from "./volumes.ts";

/**
 * Rules between the workspace and the extra volumes, judged on the resolved workspace because
 * its mount path and claim name may come from the gateway defaults.
 */
export function workspaceVolumeProblems(spec: SandboxSpec, workspace: ResolvedWorkspace): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const workspaceField = spec.workspace.mountPath === undefined ? "the workspace mount path (gateway default)" : "workspace.mountPath";
  spec.volumes.forEach((volume, index) => {
    if (pathsOverlap(volume.mountPath, workspace.mountPath)) {
      const field = `volumes[${index}].mountPath`;
      problems.push(mountClash(["volumes", index, "mountPath"], field, volume.mountPath, workspaceField, workspace.mountPath));
    }
    if (workspace.backend === "pvc" && volume.pvc.claimName === workspace.claim.claimName) {
      problems.push({
        code: "volume.workspace-claim",
        path: ["volumes", index, "pvc", "claimName"],
        message: `volumes[${index}].pvc.claimName ${volume.pvc.claimName} is the workspace's own claim; mount the workspace once, or give this volume another claim`,
      });
    }
  });
  return problems;
}

/**
 * The rules that need the gateway defaults, on a spec that already passed the schema: the
 * workspace as resolved, then the rules between workspace and volumes. The renderer runs this
 * too, so a spec cannot reach Kubernetes without them.
 */
export function checkSandboxSpec(
  spec: SandboxSpec,
  defaults: GatewayDefaults,
): { ok: true; workspace: ResolvedWorkspace } | { ok: false; problems: RuleProblem[] } {
  const reserved = reservedLabelProblems(spec.labels, defaults.labelPrefix);
  if (reserved.length > 0) return { ok: false, problems: reserved };
  const resolved = resolveWorkspace(spec, defaults);
  if (!resolved.ok) return resolved;
  const problems = workspaceVolumeProblems(spec, resolved.workspace);
  if (problems.length > 0) return { ok: false, problems };
  return resolved;
}

/**
 * The one validation a create runs: the schema, then checkSandboxSpec, then the gateway's
 * limits (at create only: a sandbox already made is never refused for a limit lowered later).
 */
export function validateSandboxSpec(
  input: unknown,
  defaults: GatewayDefaults,
  limits: GatewayLimits,
): { ok: true; spec: SandboxSpec; workspace: ResolvedWorkspace } | { ok: false; problems: SpecProblem[] } {
  const parsed = sandboxSpecSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problems: problemsFromZodError(parsed.error) };
  const checked = checkSandboxSpec(parsed.data, defaults);
  if (!checked.ok) return checked;
  const overLimits = limitProblems(parsed.data, checked.workspace, limits);
  if (overLimits.length > 0) return { ok: false, problems: overLimits };
  return { ok: true, spec: parsed.data, workspace: checked.workspace };
}
