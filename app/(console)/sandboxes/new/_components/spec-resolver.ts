import { set, type FieldErrors, type FieldValues, type Resolver } from "react-hook-form";
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

/** Each problem on the field `fieldOf` names for its path (the sandbox form's fields by default). */
export function placeProblems(problems: SpecProblem[], fieldOf: (path: SpecProblem["path"]) => string | null = formFieldOf): PlacedProblems {
  const placed: PlacedProblems = { fields: new Map(), general: [] };
  for (const problem of problems) {
    const field = fieldOf(problem.path);
    if (field === null) placed.general.push(problem.message);
    else if (!placed.fields.has(field)) placed.fields.set(field, problem.message);
  }
  return placed;
}

/** The spec problems of a problem+json answer, with their paths read back from the field names. */
export function problemsOfAnswer(fields: FieldProblem[]): SpecProblem[] {
  return fields.map((error) => ({ code: error.code, path: pathOfFieldName(error.field), message: error.message }));
}

/** A resolver from a validation that answers problems by spec path, placed by `fieldOf`. */
export function problemResolver<Values extends FieldValues>(validate: (values: Values) => SpecProblem[], fieldOf?: (path: SpecProblem["path"]) => string | null): Resolver<Values> {
  return async (values) => {
    const problems = validate(values);
    if (problems.length === 0) return { values, errors: {} };
    const { fields, general } = placeProblems(problems, fieldOf);
    const errors: FieldErrors<Values> = {};
    for (const [field, message] of fields) set(errors, field, { type: "schema", message });
    if (general.length > 0) set(errors, "root.schema", { type: "schema", message: general.join(" ") });
    return { values: {}, errors };
  };
}

export function specResolver(defaults: GatewayDefaults, limits: GatewayLimits): Resolver<CreateFormValues> {
  return problemResolver((values) => {
    const result = validateSandboxSpec(specFromForm(values, defaults.workspaceBackend), defaults, limits);
    return result.ok ? [] : result.problems;
  });
}
