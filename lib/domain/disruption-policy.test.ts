import { describe, expect, it } from "vitest";
import { disruptionPolicySchema } from "./disruption-policy.ts";
import { problemsFromZodError } from "./problems.ts";

function problems(input: unknown) {
  const result = disruptionPolicySchema.safeParse(input);
  return result.success ? [] : problemsFromZodError(result.error);
}

describe("disruptionPolicySchema", () => {
  it("defaults to Kubernetes' 30 s grace, no eviction protection, Block and recovery of failed pods", () => {
    expect(disruptionPolicySchema.parse({})).toEqual({
      evictionProtection: false,
      terminationGracePeriodSeconds: 30,
      checkpointFailurePolicy: "Block",
      autoRecoverFailedPods: true,
      snapshotOnCheckpoint: false,
    });
  });

  it("accepts a checkpoint grace shorter than the termination grace", () => {
    expect(problems({ checkpointGracePeriodSeconds: 20, terminationGracePeriodSeconds: 30 })).toEqual([]);
  });

  it("refuses a checkpoint grace as long as the termination grace, at the checkpoint grace", () => {
    expect(problems({ checkpointGracePeriodSeconds: 30 })).toEqual([
      {
        code: "disruption.checkpoint-grace",
        path: ["checkpointGracePeriodSeconds"],
        message:
          "checkpointGracePeriodSeconds (30) must be shorter than terminationGracePeriodSeconds (30), or the pod is killed while the checkpoint is still running; lower it or raise terminationGracePeriodSeconds",
      },
    ]);
  });

  it("refuses an unknown checkpoint failure policy", () => {
    expect(problems({ checkpointFailurePolicy: "Retry" })).toMatchObject([
      { path: ["checkpointFailurePolicy"], message: "checkpointFailurePolicy must be one of: Block, Proceed, ProceedAfterTimeout" },
    ]);
  });

  it("refuses a negative grace period", () => {
    expect(problems({ terminationGracePeriodSeconds: -1 })).toMatchObject([{ path: ["terminationGracePeriodSeconds"], message: "terminationGracePeriodSeconds cannot be negative" }]);
  });

  it("refuses an empty checkpoint hook", () => {
    expect(problems({ checkpointHook: [] })).toMatchObject([{ path: ["checkpointHook"] }]);
  });
});
