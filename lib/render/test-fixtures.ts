// Builders for render tests: a rendered sandbox from just the fields a test is about.
import type { SandboxApiVersion } from "../domain/sandbox-api.ts";
import type { SandboxSpecInput } from "../domain/sandbox-spec.ts";
import { aSpec, gatewayDefaults } from "../domain/test-fixtures.ts";
import { renderSandbox } from "./render-sandbox.ts";

export const SANDBOX_ID = "0b9c3a52-6f0e-4f7e-9d0a-3c1d2e4f5a6b";

export function render(
  overrides: Partial<SandboxSpecInput> = {},
  options: { defaults?: Parameters<typeof gatewayDefaults>[0]; apiVersion?: SandboxApiVersion } = {},
) {
  return renderSandbox({
    spec: aSpec(overrides),
    defaults: gatewayDefaults(options.defaults),
    sandboxId: SANDBOX_ID,
    apiVersion: options.apiVersion ?? "v1beta1",
  });
}
