import { describe, expect, it } from "vitest";
import { storedDisruptionPolicy, storedWorkspace } from "./stored-spec.ts";

describe("the parts of a stored spec, typed", () => {
  it("reads the policy as it was submitted, completed by the schema's defaults", () => {
    expect(storedDisruptionPolicy({ disruptionPolicy: { evictionProtection: true } })).toMatchObject({ evictionProtection: true, checkpointFailurePolicy: "Block", autoRecoverFailedPods: true, terminationGracePeriodSeconds: 30 });
  });

  it("reads a policy that no longer parses as the defaults", () => {
    expect(storedDisruptionPolicy({ disruptionPolicy: { checkpointFailurePolicy: "Pray" } }).checkpointFailurePolicy).toBe("Block");
  });

  it("reads the defaults for a spec with no policy (a Sandbox found in the cluster)", () => {
    expect(storedDisruptionPolicy({ name: "found", namespace: "default" }).evictionProtection).toBe(false);
  });

  it("reads the workspace's mount path", () => {
    expect(storedWorkspace({ workspace: { backend: "pvc", mountPath: "/work" } }).mountPath).toBe("/work");
  });
});
