import { z } from "zod";
import { report } from "./problems.ts";
import { argumentsSchema } from "./spec-sizes.ts";

/** Kubernetes' own default for a pod's terminationGracePeriodSeconds. */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;

export const CHECKPOINT_FAILURE_POLICIES = ["Block", "Proceed", "ProceedAfterTimeout"] as const;
export const checkpointFailurePolicySchema = z.enum(CHECKPOINT_FAILURE_POLICIES, {
  error: `checkpointFailurePolicy must be one of: ${CHECKPOINT_FAILURE_POLICIES.join(", ")}`,
});
export type CheckpointFailurePolicy = z.infer<typeof checkpointFailurePolicySchema>;

const seconds = (what: string) =>
  z.int(`${what} must be a whole number of seconds`).min(0, `${what} cannot be negative`);

export const disruptionPolicySchema = z
  .strictObject({
    /** A PodDisruptionBudget with minAvailable 1: voluntary evictions (drains) are refused. */
    evictionProtection: z.boolean().default(false),
    terminationGracePeriodSeconds: seconds("terminationGracePeriodSeconds").default(DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS),
    /** How long the checkpoint hook may run before a planned disruption. Unset: no checkpoint deadline of its own. */
    checkpointGracePeriodSeconds: seconds("checkpointGracePeriodSeconds").optional(),
    /** What a planned disruption does when the checkpoint fails. Block keeps the work safe by default. */
    checkpointFailurePolicy: checkpointFailurePolicySchema.default("Block"),
    /** Command run in the agent container to save its work, e.g. ["sh", "-c", "git -C /sandbox stash"]. */
    checkpointHook: argumentsSchema("checkpointHook").min(1, "checkpointHook needs a command, e.g. [\"sh\", \"-c\", \"sync\"]").optional(),
    /**
     * The agent-sandbox controller does not replace a pod that ended Failed (kubelet eviction
     * under node pressure); with this on, Berth recovers such a sandbox itself.
     */
    autoRecoverFailedPods: z.boolean().default(true),
    /**
     * After a successful checkpoint, also take a CSI VolumeSnapshot of the workspace claim (where
     * its storage supports snapshots; where it does not, the checkpoint says why at once).
     */
    snapshotOnCheckpoint: z.boolean().default(false),
  })
  .superRefine((policy, ctx) => {
    const checkpoint = policy.checkpointGracePeriodSeconds;
    const termination = policy.terminationGracePeriodSeconds;
    // The checkpoint runs inside the pod's termination grace; at equal length SIGKILL lands
    // exactly when the checkpoint may still be writing.
    if (checkpoint !== undefined && checkpoint >= termination) {
      report(
        ctx,
        "disruption.checkpoint-grace",
        ["checkpointGracePeriodSeconds"],
        `checkpointGracePeriodSeconds (${checkpoint}) must be shorter than terminationGracePeriodSeconds (${termination}), or the pod is killed while the checkpoint is still running; lower it or raise terminationGracePeriodSeconds`,
      );
    }
  });
export type DisruptionPolicy = z.infer<typeof disruptionPolicySchema>;
