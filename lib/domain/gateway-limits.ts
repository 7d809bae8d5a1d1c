import { z } from "zod";
import type { RuleProblem } from "./problems.ts";
import { parseQuantity, positiveQuantity } from "./quantity.ts";
import type { ResolvedWorkspace } from "./resolve-workspace.ts";
import type { SandboxSpec } from "./sandbox-spec.ts";

// The most one sandbox may ask of the cluster, chosen by the platform team. Kubernetes itself
// would accept 100,000 CPUs (the pod then never schedules), a 1 EiB claim (the provisioner
// fails, or worse, succeeds) and a 31-year grace period (a drain waits that long): each is one
// person's mistake that costs everyone. The checks run at create time only, so lowering a limit
// never strands a sandbox that already runs.

export const gatewayLimitsSchema = z.object({
  /** Largest CPU request or limit of the agent container. */
  maxCpu: positiveQuantity("maxCpu").default("16"),
  /** Largest memory request or limit of the agent container. */
  maxMemory: positiveQuantity("maxMemory").default("64Gi"),
  /** Largest claim Berth creates: the workspace's and each extra volume's. */
  maxClaimSize: positiveQuantity("maxClaimSize").default("1Ti"),
  /** Longest terminationGracePeriodSeconds (and so checkpoint grace): a drain waits this long per pod. */
  maxGracePeriodSeconds: z.coerce.number().int("maxGracePeriodSeconds must be a whole number of seconds").min(1, "maxGracePeriodSeconds must be at least 1").default(3600),
  /** Sandboxes Berth keeps in one namespace; a quota, so a refusal is 403. */
  maxSandboxesPerNamespace: z.coerce.number().int("maxSandboxesPerNamespace must be a whole number").min(1, "maxSandboxesPerNamespace must be at least 1").default(100),
});
export type GatewayLimits = z.infer<typeof gatewayLimitsSchema>;
export type GatewayLimitKey = keyof GatewayLimits;

export const DEFAULT_GATEWAY_LIMITS: GatewayLimits = gatewayLimitsSchema.parse({});

/** The environment variable that sets a configuration key: maxCpu is BERTH_MAX_CPU, sandboxNamespace BERTH_SANDBOX_NAMESPACE. */
export const berthEnvironmentVariable = (key: string) => "BERTH_" + key.replace(/[A-Z]/g, (letter) => "_" + letter).toUpperCase();

/** How a platform team changes each limit, for the messages a refusal carries. */
export function limitSetting(key: GatewayLimitKey): string {
  return `${berthEnvironmentVariable(key)} or Helm value limits.${key}`;
}

const exceeds = (quantity: string, max: string) => (parseQuantity(quantity) ?? 0) > (parseQuantity(max) ?? Infinity);

function resourceProblems(spec: SandboxSpec, limits: GatewayLimits): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const kind of ["requests", "limits"] as const) {
    const list = spec.resources?.[kind];
    const cpu = list?.cpu;
    const memory = list?.memory;
    if (cpu !== undefined && exceeds(cpu, limits.maxCpu)) {
      problems.push({ code: "limit.cpu", path: ["resources", kind, "cpu"], message: `resources.${kind}.cpu ${cpu} is more than this gateway allows (${limits.maxCpu}); ask for at most ${limits.maxCpu}, or have the platform team raise ${limitSetting("maxCpu")}` });
    }
    if (memory !== undefined && exceeds(memory, limits.maxMemory)) {
      problems.push({ code: "limit.memory", path: ["resources", kind, "memory"], message: `resources.${kind}.memory ${memory} is more than this gateway allows (${limits.maxMemory}); ask for at most ${limits.maxMemory}, or have the platform team raise ${limitSetting("maxMemory")}` });
    }
  }
  return problems;
}

function claimSizeProblems(spec: SandboxSpec, workspace: ResolvedWorkspace, limits: GatewayLimits): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const tooBig = (size: string, field: string, path: RuleProblem["path"]) =>
    problems.push({ code: "limit.claim-size", path, message: `${field} ${size} is larger than this gateway allows (${limits.maxClaimSize}); ask for at most ${limits.maxClaimSize}, or have the platform team raise ${limitSetting("maxClaimSize")}` });
  // A claim Berth does not create (existing) is whatever size it already is.
  if (workspace.backend === "pvc" && workspace.claim.ownership !== "existing" && exceeds(workspace.claim.size, limits.maxClaimSize)) {
    const given = spec.workspace.claim?.size !== undefined;
    tooBig(workspace.claim.size, given ? "workspace.claim.size" : "the workspace size (driverConfig or gateway default)", given ? ["workspace", "claim", "size"] : ["workspace"]);
  }
  spec.volumes.forEach((volume, index) => {
    const size = volume.pvc.storage;
    if (volume.pvc.createIfNotExists && size !== undefined && exceeds(size, limits.maxClaimSize)) tooBig(size, `volumes[${index}].pvc.storage`, ["volumes", index, "pvc", "storage"]);
  });
  return problems;
}

function gracePeriodProblems(spec: SandboxSpec, limits: GatewayLimits): RuleProblem[] {
  const grace = spec.disruptionPolicy.terminationGracePeriodSeconds;
  if (grace <= limits.maxGracePeriodSeconds) return [];
  return [
    {
      code: "limit.grace-period",
      path: ["disruptionPolicy", "terminationGracePeriodSeconds"],
      message: `disruptionPolicy.terminationGracePeriodSeconds ${grace} is longer than this gateway allows (${limits.maxGracePeriodSeconds} s): a drain would wait that long for this pod; use at most ${limits.maxGracePeriodSeconds}, or have the platform team raise ${limitSetting("maxGracePeriodSeconds")}`,
    },
  ];
}

/** Every way a valid spec asks for more than the gateway's limits allow. */
export function limitProblems(spec: SandboxSpec, workspace: ResolvedWorkspace, limits: GatewayLimits): RuleProblem[] {
  return [...resourceProblems(spec, limits), ...claimSizeProblems(spec, workspace, limits), ...gracePeriodProblems(spec, limits)];
}
