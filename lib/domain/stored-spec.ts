import { disruptionPolicySchema, type DisruptionPolicy } from "./disruption-policy.ts";
import { workspaceSchema, type Workspace } from "./workspace.ts";

// A sandbox record keeps its spec as it was submitted (JSON). Readers get its parts typed by the
// schemas that validated it; a part that no longer parses (stored by an older Berth), or is not
// there (a Sandbox found in the cluster has no Berth spec), reads as the schema's defaults.

const DEFAULT_POLICY = disruptionPolicySchema.parse({});

export function storedDisruptionPolicy(spec: Record<string, unknown>): DisruptionPolicy {
  return disruptionPolicySchema.safeParse(spec.disruptionPolicy ?? {}).data ?? DEFAULT_POLICY;
}

export function storedWorkspace(spec: Record<string, unknown>): Workspace {
  return workspaceSchema.safeParse(spec.workspace ?? {}).data ?? {};
}
