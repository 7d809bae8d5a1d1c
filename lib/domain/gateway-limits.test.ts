import { describe, expect, it } from "vitest";
import { DEFAULT_GATEWAY_LIMITS, gatewayLimitsSchema, type GatewayLimits } from "./gateway-limits.ts";
import type { SandboxSpecInput } from "./sandbox-spec.ts";
import { aSpecInput, gatewayDefaults } from "./test-fixtures.ts";
import { validateSandboxSpec } from "./validate-sandbox-spec.ts";

function problemsUnder(limits: Partial<GatewayLimits>, spec: Partial<SandboxSpecInput>, defaults = gatewayDefaults()) {
  const result = validateSandboxSpec(aSpecInput(spec), defaults, { ...DEFAULT_GATEWAY_LIMITS, ...limits });
  return result.ok ? [] : result.problems;
}

describe("the gateway's limits", () => {
  it("have defaults a platform team would choose", () => {
    expect(gatewayLimitsSchema.parse({})).toEqual({ maxCpu: "16", maxMemory: "64Gi", maxClaimSize: "1Ti", maxGracePeriodSeconds: 3600, maxSandboxesPerNamespace: 100 });
  });

  it("refuse 100,000 CPUs, naming the field, the limit and who can raise it", () => {
    expect(problemsUnder({}, { resources: { limits: { cpu: "100000" } } })).toEqual([
      {
        code: "limit.cpu",
        path: ["resources", "limits", "cpu"],
        message: "resources.limits.cpu 100000 is more than this gateway allows (16); ask for at most 16, or have the platform team raise BERTH_MAX_CPU or Helm value limits.maxCpu",
      },
    ]);
  });

  it("compare quantities by value, not by how they are written", () => {
    expect(problemsUnder({ maxCpu: "2" }, { resources: { requests: { cpu: "2000m" } } })).toEqual([]);
    expect(problemsUnder({ maxCpu: "2" }, { resources: { requests: { cpu: "2001m" } } })).toMatchObject([{ code: "limit.cpu", path: ["resources", "requests", "cpu"] }]);
  });

  it("refuse a memory request or limit above the largest", () => {
    expect(problemsUnder({ maxMemory: "8Gi" }, { resources: { requests: { memory: "9Gi" }, limits: { memory: "10Gi" } } }).map((problem) => problem.path)).toEqual([
      ["resources", "requests", "memory"],
      ["resources", "limits", "memory"],
    ]);
  });

  it("refuse a 1 EiB workspace claim", () => {
    expect(problemsUnder({}, { workspace: { claim: { size: "1Ei" } } })).toMatchObject([{ code: "limit.claim-size", path: ["workspace", "claim", "size"], message: expect.stringContaining("larger than this gateway allows (1Ti)") }]);
  });

  it("refuse a default workspace size above the largest claim, pointing at the workspace", () => {
    expect(problemsUnder({ maxClaimSize: "1Gi" }, {}, gatewayDefaults({ workspaceDefaultStorageSize: "2Gi" }))).toMatchObject([{ code: "limit.claim-size", path: ["workspace"], message: expect.stringContaining("the workspace size (driverConfig or gateway default) 2Gi") }]);
  });

  it("leave an existing claim alone: Berth does not make it, so its size is not asked for", () => {
    expect(problemsUnder({ maxClaimSize: "1Gi" }, { workspace: { claim: { ownership: "existing", claimName: "big" } } }, gatewayDefaults({ workspaceDefaultStorageSize: "2Gi" }))).toEqual([]);
  });

  it("refuse an extra volume Berth would create larger than the largest claim", () => {
    const volume = { name: "data", mountPath: "/data", pvc: { claimName: "data", storage: "2Ti" } };
    expect(problemsUnder({}, { volumes: [volume] })).toMatchObject([{ code: "limit.claim-size", path: ["volumes", 0, "pvc", "storage"] }]);
  });

  it("refuse a 31-year termination grace period, saying what it would do to a drain", () => {
    expect(problemsUnder({}, { disruptionPolicy: { terminationGracePeriodSeconds: 31 * 365 * 24 * 3600 } })).toMatchObject([
      { code: "limit.grace-period", path: ["disruptionPolicy", "terminationGracePeriodSeconds"], message: expect.stringContaining("a drain would wait that long for this pod") },
    ]);
  });

  it("accept a spec at every limit exactly", () => {
    expect(
      problemsUnder(
        { maxCpu: "4", maxMemory: "8Gi", maxClaimSize: "10Gi", maxGracePeriodSeconds: 600 },
        { resources: { requests: { cpu: "4", memory: "8Gi" }, limits: { cpu: "4", memory: "8Gi" } }, workspace: { claim: { size: "10Gi" } }, disruptionPolicy: { terminationGracePeriodSeconds: 600 } },
      ),
    ).toEqual([]);
  });
});
