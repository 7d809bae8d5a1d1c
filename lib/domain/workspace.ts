import { z } from "zod";
import { workspaceBackendSchema } from "./gateway-defaults.ts";
import { dns1123Subdomain } from "./kubernetes-names.ts";
import { mountPathProblem, pathsOverlap, WORKSPACE_SEED_PATH } from "./mount-paths.ts";
import { report } from "./problems.ts";
import { positiveQuantity } from "./quantity.ts";

/** The pod volume that backs the workspace, whatever backs it (OpenShell's name). */
export const WORKSPACE_VOLUME_NAME = "workspace";
export const DEFAULT_WORKSPACE_MOUNT_PATH = "/sandbox";

export { WORKSPACE_SEED_PATH } from "./mount-paths.ts";

export const CLAIM_OWNERSHIPS = ["template", "retain", "delete", "existing"] as const;
export const claimOwnershipSchema = z.enum(CLAIM_OWNERSHIPS, {
  error: `claim ownership must be one of: ${CLAIM_OWNERSHIPS.join(", ")}`,
});
export type ClaimOwnership = z.infer<typeof claimOwnershipSchema>;

export const ACCESS_MODES = ["ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"] as const;
export const accessModeSchema = z.enum(ACCESS_MODES, {
  error: `access mode must be one of: ${ACCESS_MODES.join(", ")}`,
});
export type AccessMode = z.infer<typeof accessModeSchema>;

export const accessModesSchema = z
  .array(accessModeSchema)
  .min(1, "accessModes needs at least one mode, e.g. ReadWriteOnce")
  .superRefine((modes, ctx) => {
    modes.forEach((mode, index) => {
      if (modes.indexOf(mode) !== index) {
        report(ctx, "claim.duplicate-access-mode", [index], `access mode ${mode} is listed twice; keep one`);
      }
    });
  });

/**
 * A storage class choice in Kubernetes' own three-way form: the property unset means the
 * cluster's default StorageClass, "" means no class at all (only pre-provisioned volumes bind),
 * a name means that class.
 */
export const storageClassNameSchema = (what: string) => z.union([z.literal(""), dns1123Subdomain(what)]);

/** A mount path for the agent container: absolute, normalised, not the root. */
export const mountPathSchema = (what: string) =>
  z.string().superRefine((path, ctx) => {
    const problem = mountPathProblem(path);
    if (problem) report(ctx, "mount.invalid-path", [], `${what} ${problem}`);
  });

export const workspaceClaimSchema = z
  .strictObject({
    /** Unset: `template`. */
    ownership: claimOwnershipSchema.optional(),
    /** Unset: `workspace-<sandbox name>`. Required for `existing`. */
    claimName: dns1123Subdomain("workspace.claim.claimName").optional(),
    storageClassName: storageClassNameSchema("workspace.claim.storageClassName").optional(),
    /** Unset: driverConfig.kubernetes.workspace_default_storage_size, then the gateway default. */
    size: positiveQuantity("workspace.claim.size").optional(),
    /** Unset: [ReadWriteOnce]. */
    accessModes: accessModesSchema.optional(),
  })
  .superRefine((claim, ctx) => {
    const ownership = claim.ownership ?? "template";
    if (ownership === "existing" && claim.claimName === undefined) {
      report(
        ctx,
        "workspace.existing-needs-claim-name",
        ["claimName"],
        "workspace.claim.claimName is required when ownership is existing: name the PersistentVolumeClaim to mount",
      );
    }
    if (ownership === "template" && claim.claimName !== undefined) {
      // The agent-sandbox controller names template claims itself (workspace-<sandbox>).
      report(
        ctx,
        "workspace.claim-name-with-template",
        ["claimName"],
        "workspace.claim.claimName cannot be chosen with ownership template (the controller names the claim workspace-<sandbox name>); use ownership retain, delete or existing to pick the name",
      );
    }
    if (ownership === "existing") {
      for (const key of ["size", "storageClassName", "accessModes"] as const) {
        if (claim[key] === undefined) continue;
        report(
          ctx,
          "claim.provisioning-ignored",
          [key],
          `workspace.claim.${key} has no effect with ownership existing, because Berth does not create that claim; remove it, or use ownership retain or delete`,
        );
      }
    }
  });
export type WorkspaceClaim = z.infer<typeof workspaceClaimSchema>;

export const workspaceSchema = z
  .strictObject({
    /** Unset: driverConfig.kubernetes.workspace_backend, then the gateway default. */
    backend: workspaceBackendSchema.optional(),
    /** Unset: the gateway default (normally /sandbox). */
    mountPath: mountPathSchema("workspace.mountPath").optional(),
    /** Only for the pvc backend. */
    claim: workspaceClaimSchema.optional(),
  })
  .superRefine((workspace, ctx) => {
    if (workspace.mountPath !== undefined && pathsOverlap(workspace.mountPath, WORKSPACE_SEED_PATH)) {
      report(ctx, "mount.reserved-path", ["mountPath"], `workspace.mountPath cannot be at, above or inside ${WORKSPACE_SEED_PATH}: Berth uses it to seed the workspace`);
    }
  });
export type Workspace = z.infer<typeof workspaceSchema>;

export const STORAGE_CLASS_CHOICE_KINDS = ["cluster-default", "none", "named"] as const;
export const storageClassChoiceSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("cluster-default") }),
  z.object({ kind: z.literal("none") }),
  z.object({ kind: z.literal("named"), name: z.string() }),
]);
export type StorageClassChoice = z.infer<typeof storageClassChoiceSchema>;

/** Read the three-way storage class field; `undefined` (absent) means the cluster default. */
export function storageClassChoice(value: string | undefined): StorageClassChoice {
  if (value === undefined) return { kind: "cluster-default" };
  if (value === "") return { kind: "none" };
  return { kind: "named", name: value };
}

/** The `storageClassName` to put in a claim spec; `undefined` means leave the property out. */
export function storageClassNameFor(choice: StorageClassChoice): string | undefined {
  switch (choice.kind) {
    case "cluster-default":
      return undefined;
    case "none":
      return "";
    case "named":
      return choice.name;
  }
}

/** The name the workspace claim gets when the user names none (the controller's own pattern). */
export function defaultWorkspaceClaimName(sandboxName: string): string {
  return `${WORKSPACE_VOLUME_NAME}-${sandboxName}`;
}

/**
 * What deleting the sandbox does to a claim, by its ownership: `template` claims go with the
 * Sandbox (garbage collection), `delete` claims are swept by Berth; `retain` claims stay for the
 * next sandbox and `existing` ones were never Berth's to remove.
 */
export type ClaimFate = "removed" | "kept";

export function claimFate(ownership: ClaimOwnership): ClaimFate {
  return ownership === "template" || ownership === "delete" ? "removed" : "kept";
}
