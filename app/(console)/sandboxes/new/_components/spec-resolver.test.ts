import type { FieldErrors } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { gatewayDefaultsSchema } from "@/lib/domain/gateway-defaults.ts";
import { DEFAULT_GATEWAY_LIMITS } from "@/lib/domain/gateway-limits.ts";
import { initialFormValues, type CreateFormValues } from "./create-form-values.ts";
import { specResolver } from "./spec-resolver.ts";

// The form holds a create to what the server will: the schema, and this gateway's limits.

const defaults = gatewayDefaultsSchema.parse({});

async function errorsFor(change: (values: CreateFormValues) => void, limits = DEFAULT_GATEWAY_LIMITS): Promise<FieldErrors<CreateFormValues>> {
  const values = initialFormValues("pvc");
  values.name = "box";
  change(values);
  const resolve = specResolver(defaults, limits);
  return (await resolve(values, undefined, { fields: {}, shouldUseNativeValidation: false })).errors;
}

describe("the create form's validation", () => {
  it("accepts what is within this gateway's limits", async () => {
    expect(await errorsFor((values) => (values.resources.limits.cpu = "16"))).toEqual({});
  });

  it("puts a CPU limit above this gateway's on its field", async () => {
    const errors = await errorsFor((values) => (values.resources.limits.cpu = "100000"));
    expect(errors.resources?.limits?.cpu?.message).toMatch(/100000 is more than this gateway allows \(16\)/);
  });

  it("holds to the limits it is given, not the defaults", async () => {
    const errors = await errorsFor((values) => (values.disruptionPolicy.terminationGracePeriodSeconds = "120"), { ...DEFAULT_GATEWAY_LIMITS, maxGracePeriodSeconds: 60 });
    expect(errors.disruptionPolicy?.terminationGracePeriodSeconds?.message).toMatch(/longer than this gateway allows \(60 s\)/);
  });
});
