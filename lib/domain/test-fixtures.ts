// Builders for tests: a valid spec or gateway config with only the fields a test is about.
import type { z } from "zod";
import type { Actor } from "./audit.ts";
import { type GatewayDefaults, gatewayDefaultsSchema } from "./gateway-defaults.ts";
import { type SpecProblem, problemsFromZodError } from "./problems.ts";
import { type SandboxSpec, type SandboxSpecInput, sandboxSpecSchema } from "./sandbox-spec.ts";

export function aSpecInput(overrides: Partial<SandboxSpecInput> = {}): SandboxSpecInput {
  return { name: "my-box", ...overrides };
}

/** A parsed spec; throws if the overrides make it invalid, so a broken fixture fails loudly. */
export function aSpec(overrides: Partial<SandboxSpecInput> = {}): SandboxSpec {
  return sandboxSpecSchema.parse(aSpecInput(overrides));
}

export function gatewayDefaults(overrides: Partial<z.input<typeof gatewayDefaultsSchema>> = {}): GatewayDefaults {
  return gatewayDefaultsSchema.parse(overrides);
}

/** What sandboxSpecSchema finds wrong with a spec built from these overrides. */
export function specProblems(overrides: Record<string, unknown>): SpecProblem[] {
  const result = sandboxSpecSchema.safeParse({ name: "my-box", ...overrides });
  return result.success ? [] : problemsFromZodError(result.error);
}

/** Who a test says made a change: a person with no groups, outside any request. */
export function anActor(username = "alice", groups: string[] = []): Actor {
  return { username, groups, requestId: null };
}
