import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { SandboxSpecInput } from "../domain/sandbox-spec.ts";
import { UsageError } from "./cli-errors.ts";

// `berth create sandbox`: the spec from a file (-f, YAML or JSON, `-` for standard input) with
// the flags on top of it. The flags say only what was typed; everything else is left to the
// server's defaults, as the create form leaves it, and the server validates the whole.

export interface SpecFlags {
  filename?: string;
  namespace?: string;
  profile?: string;
  image?: string;
  workspace?: string;
  ownership?: string;
  claim?: string;
  storageClass?: string;
  size?: string;
  protect?: boolean;
  env?: string[];
  label?: string[];
}

type Spec = Record<string, unknown> & { workspace?: Record<string, unknown>; disruptionPolicy?: Record<string, unknown> };

function fromFile(filename: string): Spec {
  const text = readFileSync(filename === "-" ? 0 : filename, "utf8");
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    throw new UsageError(`${filename} is not YAML or JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new UsageError(`${filename} must hold one sandbox spec (an object with name, profile, workspace, …)`);
  return parsed as Spec;
}

/** NAME=VALUE, as kubectl's --env and --labels take them. */
function pairOf(flag: string, pair: string): [string, string] {
  const at = pair.indexOf("=");
  if (at <= 0) throw new UsageError(`${flag} ${pair}: write it as NAME=VALUE`);
  return [pair.slice(0, at), pair.slice(at + 1)];
}

export function specFrom(name: string | undefined, flags: SpecFlags): SandboxSpecInput {
  const spec: Spec = flags.filename ? fromFile(flags.filename) : {};
  if (name !== undefined) spec.name = name;
  if (typeof spec.name !== "string") throw new UsageError("name the sandbox: berth create sandbox NAME, or a name in the file given with -f");
  if (flags.namespace) spec.namespace = flags.namespace;
  if (flags.profile) spec.profile = flags.profile;
  if (flags.image) spec.image = flags.image;
  if (flags.env?.length) spec.env = [...((spec.env as unknown[]) ?? []), ...flags.env.map((pair) => pairOf("--env", pair)).map(([name, value]) => ({ name, value }))];
  if (flags.label?.length) spec.labels = { ...(spec.labels as Record<string, string> | undefined), ...Object.fromEntries(flags.label.map((pair) => pairOf("--label", pair))) };
  const claim: Record<string, unknown> = {};
  if (flags.ownership) claim.ownership = flags.ownership;
  if (flags.claim) claim.claimName = flags.claim;
  if (flags.storageClass !== undefined) claim.storageClassName = flags.storageClass;
  if (flags.size) claim.size = flags.size;
  if (flags.workspace || Object.keys(claim).length > 0) {
    const workspace: Record<string, unknown> = { ...spec.workspace, ...(flags.workspace ? { backend: flags.workspace } : {}) };
    if (Object.keys(claim).length > 0) workspace.claim = { ...(workspace.claim as Record<string, unknown> | undefined), ...claim };
    spec.workspace = workspace;
  }
  if (flags.protect) spec.disruptionPolicy = { ...spec.disruptionPolicy, evictionProtection: true };
  // The server checks every field and names the ones it refuses.
  return spec as SandboxSpecInput;
}
