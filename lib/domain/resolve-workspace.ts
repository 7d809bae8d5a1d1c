import { z } from "zod";
import { type GatewayDefaults, workspaceBackendSchema } from "./gateway-defaults.ts";
import type { RuleProblem } from "./problems.ts";
import type { SandboxSpec } from "./sandbox-spec.ts";
import { chosenBackend, ephemeralWorkspaceProblems } from "./workspace-rules.ts";
import {
  type AccessMode,
  accessModeSchema,
  claimOwnershipSchema,
  defaultWorkspaceClaimName,
  storageClassChoice,
  storageClassChoiceSchema,
} from "./workspace.ts";

/** Which layer a resolved value came from, so the console can say "gateway default". */
export const decidedBySchema = z.enum(["spec", "driverConfig", "gateway"]);

export const resolvedWorkspaceClaimSchema = z.object({
  ownership: claimOwnershipSchema,
  /** For `template`, the name the controller will give the claim (`workspace-<sandbox>`). */
  claimName: z.string(),
  /** Used only where a claim is created (template, retain, delete); an existing claim keeps its own. */
  size: z.string(),
  storageClass: storageClassChoiceSchema,
  accessModes: z.array(accessModeSchema),
});

export const resolvedWorkspaceSchema = z.discriminatedUnion("backend", [
  z.object({
    backend: z.literal(workspaceBackendSchema.enum.ephemeral),
    mountPath: z.string(),
    decidedBy: z.object({ backend: decidedBySchema, mountPath: decidedBySchema }),
  }),
  z.object({
    backend: z.literal(workspaceBackendSchema.enum.pvc),
    mountPath: z.string(),
    claim: resolvedWorkspaceClaimSchema,
    decidedBy: z.object({ backend: decidedBySchema, mountPath: decidedBySchema, size: decidedBySchema, storageClass: decidedBySchema }),
  }),
]);
export type ResolvedWorkspace = z.infer<typeof resolvedWorkspaceSchema>;

const DEFAULT_ACCESS_MODES: AccessMode[] = ["ReadWriteOnce"];

/**
 * The workspace a sandbox really gets. Each setting is taken from the first layer that has
 * it: spec.workspace, then driverConfig.kubernetes, then the gateway defaults.
 *
 * The gateway default is never an error by itself (a gateway whose default is ephemeral still
 * has a default size; it simply goes unused). But when the user wrote a storage size, class or
 * other claim field and left the backend to a gateway whose default is ephemeral, that is
 * reported: the user asked for storage the sandbox would not get, and silently dropping it
 * would lose their data at the first pod replacement.
 */
export function resolveWorkspace(
  spec: SandboxSpec,
  defaults: GatewayDefaults,
): { ok: true; workspace: ResolvedWorkspace } | { ok: false; problems: RuleProblem[] } {
  const chosen = chosenBackend(spec);
  const backend = chosen?.backend ?? defaults.workspaceBackend;
  const mountPath = spec.workspace.mountPath ?? defaults.workspaceMountPath;
  const mountPathFrom = spec.workspace.mountPath === undefined ? "gateway" : "spec";
  const backendFrom = chosen?.decidedBy ?? "gateway";

  if (backend === "ephemeral") {
    const problems = ephemeralWorkspaceProblems(spec);
    if (problems.length > 0) return { ok: false, problems };
    return { ok: true, workspace: { backend, mountPath, decidedBy: { backend: backendFrom, mountPath: mountPathFrom } } };
  }

  const claim = spec.workspace.claim;
  const driver = spec.driverConfig?.kubernetes;

  const [size, sizeFrom] =
    claim?.size !== undefined
      ? [claim.size, "spec" as const]
      : driver?.workspace_default_storage_size !== undefined
        ? [driver.workspace_default_storage_size, "driverConfig" as const]
        : [defaults.workspaceDefaultStorageSize, "gateway" as const];

  // `!== undefined`, not `??`: "" is a choice of its own (no class), not a missing value.
  const [storageClassName, storageClassFrom] =
    claim?.storageClassName !== undefined
      ? [claim.storageClassName, "spec" as const]
      : driver?.workspace_storage_class !== undefined
        ? [driver.workspace_storage_class, "driverConfig" as const]
        : [defaults.workspaceStorageClass, "gateway" as const];

  return {
    ok: true,
    workspace: {
      backend,
      mountPath,
      claim: {
        ownership: claim?.ownership ?? "template",
        claimName: claim?.claimName ?? defaultWorkspaceClaimName(spec.name),
        size,
        storageClass: storageClassChoice(storageClassName),
        accessModes: claim?.accessModes ?? DEFAULT_ACCESS_MODES,
      },
      decidedBy: { backend: backendFrom, mountPath: mountPathFrom, size: sizeFrom, storageClass: storageClassFrom },
    },
  };
}
