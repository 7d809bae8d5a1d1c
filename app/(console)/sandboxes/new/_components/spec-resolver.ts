import { set, type FieldErrors, type Resolver } from "react-hook-form";
import { pathOfFieldName, problemsFromZodError, type SpecProblem } from "@/lib/domain/problems.ts";
import { sandboxSpecSchema } from "@/lib/domain/sandbox-spec.ts";
import type { WorkspaceBackend } from "@/lib/domain/gateway-defaults.ts";
import type { FieldProblem } from "@/app/(console)/_components/api-client.ts";
import { formFieldOf, specFromForm, type CreateFormValues } from "./create-form-values.ts";

// The create form validates with the server's own schema: the form's values become a spec, the
// spec is parsed with sandboxSpecSchema, and each problem lands on the field its path names.
// (A stock zodResolver would need a form-shaped schema: a second copy of the rules.)

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

export function specResolver(gatewayBackend: WorkspaceBackend): Resolver<CreateFormValues> {
  return async (values) => {
    const result = sandboxSpecSchema.safeParse(specFromForm(values, gatewayBackend));
    if (result.success) return { values, errors: {} };
    const { fields, general } = placeProblems(problemsFromZodError(result.error));
    const errors: FieldErrors<CreateFormValues> = {};
    for (const [field, message] of fields) set(errors, field, { type: "schema", message });
    if (general.length > 0) set(errors, "root.schema", { type: "schema", message: general.join(" ") });
    return { values: {}, errors };
  };
}
