import { describe, expect, it } from "vitest";
import { problemsFromZodError } from "./problems.ts";
import { DEFAULT_GATEWAY_LIMITS } from "./gateway-limits.ts";
import { sandboxTemplateSpecSchema, validateSandboxTemplate } from "./sandbox-template.ts";
import { gatewayDefaults } from "./test-fixtures.ts";

// What a template may hold: what is the same for every sandbox made from it, and nothing that
// belongs to one of them.

const problemsOf = (input: Record<string, unknown>) => {
  const result = sandboxTemplateSpecSchema.safeParse({ name: "python", ...input });
  return result.success ? [] : problemsFromZodError(result.error).map(({ code, path }) => ({ code, path }));
};

describe("a sandbox template", () => {
  it("takes a name alone, its sandbox the defaults of a sandbox spec", () => {
    const template = sandboxTemplateSpecSchema.parse({ name: "python" });
    expect([template.sandbox.profile, template.sandbox.env, template.warmPool]).toEqual(["generic", [], undefined]);
  });

  it("takes a warm pool, updating OnReplenish unless told otherwise", () => {
    expect(sandboxTemplateSpecSchema.parse({ name: "python", warmPool: { replicas: 3 } }).warmPool).toEqual({ replicas: 3, updateStrategy: "OnReplenish" });
  });

  it("takes an ephemeral workspace", () => {
    expect(problemsOf({ sandbox: { workspace: { backend: "ephemeral" } } })).toEqual([]);
  });

  it.each(["retain", "delete", "existing"])("refuses a workspace claim of ownership %s, which every sandbox of it would share", (ownership) => {
    const claim = { ownership, claimName: "shared" };
    expect(problemsOf({ sandbox: { workspace: { claim } } })).toContainEqual({ code: "template.shared-claim", path: ["sandbox", "workspace", "claim", "ownership"] });
  });

  it("refuses a secret value, naming the variable", () => {
    expect(problemsOf({ sandbox: { env: [{ name: "API_KEY", value: "sk", secret: true }] } })).toEqual([{ code: "template.secret-value", path: ["sandbox", "env", 0, "secret"] }]);
  });

  it("takes a reference to an existing Secret", () => {
    expect(problemsOf({ sandbox: { env: [{ name: "API_KEY", valueFrom: { secretKeyRef: { name: "team-keys", key: "api" } } }] } })).toEqual([]);
  });

  it("refuses an extra volume mounted read-write by every sandbox of it", () => {
    const volume = { name: "data", pvc: { claimName: "datasets", createIfNotExists: false }, mountPath: "/data" };
    expect(problemsOf({ sandbox: { volumes: [volume] } })).toEqual([{ code: "template.writable-volume", path: ["sandbox", "volumes", 0, "readOnly"] }]);
  });

  it("takes the same volume read-only", () => {
    const volume = { name: "data", pvc: { claimName: "datasets", createIfNotExists: false }, mountPath: "/data", readOnly: true };
    expect(problemsOf({ sandbox: { volumes: [volume] } })).toEqual([]);
  });

  it("refuses a pooled template whose name leaves no room for its sandboxes' suffix", () => {
    expect(problemsOf({ name: "a".repeat(58), warmPool: { replicas: 1 } })).toEqual([{ code: "template.name-too-long-for-pool", path: ["name"] }]);
  });

  it("takes the same name without a pool", () => {
    expect(problemsOf({ name: "a".repeat(58) })).toEqual([]);
  });

  it("refuses a pool of more than 50", () => {
    expect(problemsOf({ warmPool: { replicas: 51 } }).map((problem) => problem.path)).toEqual([["warmPool", "replicas"]]);
  });

  it("refuses an update strategy agent-sandbox does not have", () => {
    expect(problemsOf({ warmPool: { replicas: 1, updateStrategy: "RollingUpdate" } }).map((problem) => problem.path)).toEqual([["warmPool", "updateStrategy"]]);
  });

  it("keeps the sandbox spec's own rules: a custom profile needs an image", () => {
    expect(problemsOf({ sandbox: { profile: "custom" } })).toEqual([{ code: "profile.custom-needs-image", path: ["sandbox", "image"] }]);
  });

  it("refuses a field it does not know", () => {
    expect(problemsOf({ sandbox: { name: "box" } }).map((problem) => problem.code)).toEqual(["unrecognized_keys"]);
  });
});

describe("a template's validation against the gateway", () => {
  const defaults = gatewayDefaults();

  it("refuses a sandbox over the gateway's limits, on the template's field", () => {
    const result = validateSandboxTemplate({ name: "slow", sandbox: { disruptionPolicy: { terminationGracePeriodSeconds: 600 } } }, defaults, { ...DEFAULT_GATEWAY_LIMITS, maxGracePeriodSeconds: 300 });
    expect(result.ok ? [] : result.problems.map((problem) => problem.path.join("."))).toEqual(["sandbox.disruptionPolicy.terminationGracePeriodSeconds"]);
  });

  it("takes a template a create would take", () => {
    expect(validateSandboxTemplate({ name: "fine", warmPool: { replicas: 2 } }, defaults, DEFAULT_GATEWAY_LIMITS).ok).toBe(true);
  });
});
