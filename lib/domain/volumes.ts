import { z } from "zod";
import { dns1123Label, dns1123Subdomain } from "./kubernetes-names.ts";
import { pathsOverlap, subPathProblem } from "./mount-paths.ts";
import { type ProblemPath, type RuleProblem, report, reportProblem } from "./problems.ts";
import { positiveQuantity } from "./quantity.ts";
import { WORKSPACE_VOLUME_NAME, accessModesSchema, mountPathSchema, storageClassNameSchema } from "./workspace.ts";

// Additional volumes in OpenSandbox's shape (OSEP-0003 `pvc` backend), defaults included:
// createIfNotExists true, deleteOnSandboxTermination false.

export const volumeClaimSchema = z
  .strictObject({
    claimName: dns1123Subdomain("pvc.claimName"),
    /** Berth creates the claim when it is missing. False: it must already exist. */
    createIfNotExists: z.boolean().default(true),
    /** Berth deletes the claim when the sandbox is deleted. */
    deleteOnSandboxTermination: z.boolean().default(false),
    /** Three-way, as workspace.claim.storageClassName; unset follows the gateway's workspace storage class. */
    storageClass: storageClassNameSchema("pvc.storageClass").optional(),
    /** Unset: the gateway's default workspace size. */
    storage: positiveQuantity("pvc.storage").optional(),
    /** Unset: [ReadWriteOnce]. */
    accessModes: accessModesSchema.optional(),
  })
  .superRefine((claim, ctx) => {
    if (claim.createIfNotExists) return;
    for (const key of ["storageClass", "storage", "accessModes"] as const) {
      if (claim[key] === undefined) continue;
      report(
        ctx,
        "claim.provisioning-ignored",
        [key],
        `pvc.${key} has no effect when pvc.createIfNotExists is false, because Berth does not create that claim; remove it, or set createIfNotExists to true`,
      );
    }
  });
export type VolumeClaim = z.infer<typeof volumeClaimSchema>;

export const volumeSchema = z.strictObject({
  name: dns1123Label("volume name"),
  pvc: volumeClaimSchema,
  mountPath: mountPathSchema("mountPath"),
  readOnly: z.boolean().default(false),
  subPath: z
    .string()
    .min(1, "subPath cannot be empty; leave it out to mount the whole volume")
    .superRefine((subPath, ctx) => {
      const problem = subPathProblem(subPath);
      if (problem) report(ctx, "volume.invalid-sub-path", [], `subPath ${problem}`);
    })
    .optional(),
});
export type Volume = z.infer<typeof volumeSchema>;

const LIFECYCLE_FLAGS = ["createIfNotExists", "deleteOnSandboxTermination"] as const;

export const volumesSchema = z.array(volumeSchema).superRefine((volumes, ctx) => {
  volumes.forEach((volume, index) => {
    if (volume.name === WORKSPACE_VOLUME_NAME) {
      report(ctx, "volume.reserved-name", [index, "name"], `volume name '${WORKSPACE_VOLUME_NAME}' is taken by the workspace; choose another name`);
    }
    const first = volumes.findIndex((other) => other.name === volume.name);
    if (first < index) {
      report(ctx, "volume.duplicate-name", [index, "name"], `volume name '${volume.name}' is already used by volumes[${first}]; volume names must be unique`);
    }

    // A claim has one lifecycle however often it is mounted: mounts that disagree on it
    // leave it undecided whether Berth creates or deletes it.
    const sameClaim = volumes.findIndex((other) => other.pvc.claimName === volume.pvc.claimName);
    const earlier = volumes[sameClaim];
    if (earlier && sameClaim < index) {
      for (const flag of LIFECYCLE_FLAGS) {
        if (earlier.pvc[flag] === volume.pvc[flag]) continue;
        report(
          ctx,
          "volume.claim-disagreement",
          [index, "pvc", flag],
          `volumes[${index}] mounts claim ${volume.pvc.claimName} with ${flag} ${volume.pvc[flag]}, but volumes[${sameClaim}] mounts it with ${earlier.pvc[flag]}; make both mounts agree`,
        );
      }
    }

    const clash = volumes.findIndex((other, at) => at < index && pathsOverlap(other.mountPath, volume.mountPath));
    const clashing = volumes[clash];
    if (clashing) {
      reportProblem(ctx, mountClash([index, "mountPath"], `volumes[${index}].mountPath`, volume.mountPath, `volumes[${clash}].mountPath`, clashing.mountPath));
    }
  });
});

/** The problem for two overlapping mounts, shared with the workspace-vs-volume check. */
export function mountClash(path: ProblemPath, field: string, mountPath: string, otherField: string, otherMountPath: string): RuleProblem {
  if (mountPath === otherMountPath) {
    return { code: "mount.duplicate-path", path, message: `${field} ${mountPath} is already used by ${otherField}; every mount needs its own path` };
  }
  const relation = mountPath.startsWith(`${otherMountPath}/`) ? "lies inside" : "contains";
  return {
    code: "mount.nested-path",
    path,
    message: `${field} ${mountPath} ${relation} ${otherField} ${otherMountPath}; mounts cannot be nested, choose separate paths`,
  };
}
