import { set, type FieldErrors, type Resolver } from "react-hook-form";
import { pathOfFieldName, type SpecProblem } from "@/lib/domain/problems.ts";
import type { GatewayDefaults } from "@/lib/domain/gateway-defaults.ts";
import type { GatewayLimits } from "@/lib/domain/gateway-limits.ts";
import { validateSandboxSpec } from "@/lib/domain/validate-sandbox-spec.ts";
import type { FieldProblem } from "@/app/(console)/_components/api-client.ts";
import { formFieldOf, specFromForm, type CreateFormValues } from "./create-form-values.ts";

// The create form validates as the server will: the form's values become a spec, the spec goes
// through validateSandboxSpec (the schema, the rules between workspace and volumes, and this
// gateway's limits), and each problem lands on the field its path names. (A stock zodResolver
// would need a form-shaped schema: a second copy of the rules.)

export interface PlacedProblems {
  /** Field name → message, the first problem of each field. */
  fields: Map<string, string>;
  /** Problems no field of the form shows. */
  general: string[];
}

export function placeProblems(problems: SpecProblem[]): PlacedProblems {
  const placed: PlacedProblems = { fields: new Map(), general: [] };
  for (const problem of problems) {
    const field = formFieldOf(problem.path);
    if (field === null) placed.general.push(problem.message);
    else if (!placed.fields.has(field)) placed.fields.set(field, problem.message);
  }
  return placed;
}

/** The spec problems of a problem+json answer, with their paths read back from the field names. */
export function problemsOfAnswer(fields: FieldProblem[]): SpecProblem[] {
  return fields.map((error) => ({ code: error.code, path: pathOfFieldName(error.field), message: error.message }));
}

export function specResolver(defaults: GatewayDefaults, limits: GatewayLimits): Resolver<CreateFormValues> {
  return async (values) => {
    const result = validateSandboxSpec(specFromForm(values, defaults.workspaceBackend), defaults, limits);
    if (result.ok) return { values, errors: {} };
    const { fields, general } = placeProblems(result.problems);
    const errors: FieldErrors<CreateFormValues> = {};
    for (const [field, message] of fields) set(errors, field, { type: "schema", message });
    if (general.length > 0) set(errors, "root.schema", { type: "schema", message: general.join(" ") });
    return { values: {}, errors };
  };
}
