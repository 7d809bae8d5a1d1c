import type { DriverConfig } from "./driver-config.ts";
import type { WorkspaceBackend } from "./gateway-defaults.ts";
import { type ProblemPath, type RuleProblem, fieldName } from "./problems.ts";
import type { Workspace } from "./workspace.ts";

// The workspace backend can be written in two places (workspace.backend and OpenShell's
// driverConfig.kubernetes.workspace_backend), and so can its size and class. These rules judge
// the two together. Only what the user wrote can be wrong: a gateway default is never an error
// by itself, but a size the user wrote for a workspace that the gateway default makes
// ephemeral is, because the user asked for storage that will not exist.

interface WorkspaceFields {
  workspace?: Workspace | undefined;
  driverConfig?: DriverConfig | undefined;
}

const SPEC_BACKEND: ProblemPath = ["workspace", "backend"];
const DRIVER_BACKEND: ProblemPath = ["driverConfig", "kubernetes", "workspace_backend"];

export type BackendSetter = "spec" | "driverConfig";

/** The backend the user chose, and where; undefined when the gateway default decides. */
export function chosenBackend(spec: WorkspaceFields): { backend: WorkspaceBackend; decidedBy: BackendSetter } | undefined {
  const own = spec.workspace?.backend;
  if (own !== undefined) return { backend: own, decidedBy: "spec" };
  const driver = spec.driverConfig?.kubernetes?.workspace_backend;
  if (driver !== undefined) return { backend: driver, decidedBy: "driverConfig" };
  return undefined;
}

export function backendConflictProblems(spec: WorkspaceFields): RuleProblem[] {
  const own = spec.workspace?.backend;
  const driver = spec.driverConfig?.kubernetes?.workspace_backend;
  if (own === undefined || driver === undefined || own === driver) return [];
  return [
    {
      code: "workspace.backend-conflict",
      path: SPEC_BACKEND,
      message: `workspace.backend (${own}) and driverConfig.kubernetes.workspace_backend (${driver}) disagree; set only one of them, or set both to the same backend`,
    },
  ];
}

type Side = "spec" | "driverConfig";

/** The field that made the workspace ephemeral, looking at the field's own side first. */
function ephemeralBecause(spec: WorkspaceFields, side: Side): { what: string; fix: string } {
  const own = { path: SPEC_BACKEND, value: spec.workspace?.backend };
  const driver = { path: DRIVER_BACKEND, value: spec.driverConfig?.kubernetes?.workspace_backend };
  const candidates = side === "spec" ? [own, driver] : [driver, own];
  const setter = candidates.find((candidate) => candidate.value === "ephemeral");
  if (setter) {
    const name = fieldName(setter.path);
    return { what: `${name} is ephemeral`, fix: `set ${name} to pvc` };
  }
  return { what: "the gateway's default workspace backend is ephemeral", fix: "set workspace.backend to pvc" };
}

const STORAGE_FIELDS: readonly { side: Side; path: ProblemPath; read: (spec: WorkspaceFields) => string | undefined }[] = [
  { side: "spec", path: ["workspace", "claim", "size"], read: (spec) => spec.workspace?.claim?.size },
  { side: "spec", path: ["workspace", "claim", "storageClassName"], read: (spec) => spec.workspace?.claim?.storageClassName },
  {
    side: "driverConfig",
    path: ["driverConfig", "kubernetes", "workspace_default_storage_size"],
    read: (spec) => spec.driverConfig?.kubernetes?.workspace_default_storage_size,
  },
  {
    side: "driverConfig",
    path: ["driverConfig", "kubernetes", "workspace_storage_class"],
    read: (spec) => spec.driverConfig?.kubernetes?.workspace_storage_class,
  },
];

const CLAIM_ONLY_FIELDS = ["ownership", "claimName", "accessModes"] as const;

/**
 * Everything the user wrote that needs a claim, on a workspace that turned out ephemeral
 * (an emptyDir: nothing to size, class or own). Call it only when the effective backend is
 * ephemeral; it names the field that made it so, or the gateway default.
 */
export function ephemeralWorkspaceProblems(spec: WorkspaceFields): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const field of STORAGE_FIELDS) {
    if (field.read(spec) === undefined) continue;
    const because = ephemeralBecause(spec, field.side);
    const name = fieldName(field.path);
    problems.push({
      code: "workspace.ephemeral-with-storage",
      path: field.path,
      message: `${name} is set, but ${because.what}: an ephemeral workspace is an emptyDir with no claim to size or give a class. Remove ${name}, or ${because.fix}`,
    });
  }
  const claim = spec.workspace?.claim;
  for (const key of CLAIM_ONLY_FIELDS) {
    if (claim?.[key] === undefined) continue;
    const because = ephemeralBecause(spec, "spec");
    problems.push({
      code: "workspace.claim-on-ephemeral",
      path: ["workspace", "claim", key],
      message: `workspace.claim.${key} only applies to a pvc workspace, but ${because.what}. Remove workspace.claim.${key}, or ${because.fix}`,
    });
  }
  return problems;
}
