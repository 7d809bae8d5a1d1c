import { z } from "zod";

// One shape for every validation finding, whether zod found it on a single field or a
// cross-field rule found it, so the API can answer with problem+json and the browser can put
// the message next to the field that `path` names.

/** Stable codes for Berth's own rules. Clients may branch on them; never rename one. */
export const PROBLEM_CODES = [
  "profile.custom-needs-image",
  "env.duplicate-name",
  "resources.limit-below-request",
  "workspace.backend-conflict",
  "workspace.ephemeral-with-storage",
  "workspace.claim-on-ephemeral",
  "workspace.existing-needs-claim-name",
  "workspace.claim-name-with-template",
  "claim.provisioning-ignored",
  "claim.duplicate-access-mode",
  "mount.invalid-path",
  "mount.duplicate-path",
  "mount.nested-path",
  "mount.reserved-path",
  "volume.invalid-sub-path",
  "volume.duplicate-name",
  "volume.reserved-name",
  "volume.claim-disagreement",
  "volume.workspace-claim",
  "disruption.checkpoint-grace",
  "claim.not-found",
  "claim.in-use",
  "limit.cpu",
  "limit.memory",
  "limit.claim-size",
  "limit.grace-period",
  "limit.too-long",
  "limit.too-many",
  "image.invalid-reference",
  "text.forbidden-character",
  "env.value-and-reference",
  "env.no-value",
  "env.secret-without-value",
  "env.secret-exists",
  "labels.invalid-key",
  "labels.invalid-value",
  "labels.reserved-key",
  "template.shared-claim",
  "template.secret-value",
  "template.writable-volume",
  "template.name-too-long-for-pool",
] as const;
export const problemCodeSchema = z.enum(PROBLEM_CODES);
export type ProblemCode = z.infer<typeof problemCodeSchema>;

export const specProblemSchema = z.object({
  /** A code from PROBLEM_CODES, or zod's own issue code (`invalid_type`, `too_small`, ...). */
  code: z.string(),
  /** Where the offending field is in the submitted spec, e.g. ["workspace", "claim", "size"]. */
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});
export type SpecProblem = z.infer<typeof specProblemSchema>;

export type ProblemPath = SpecProblem["path"];

/** Zod's refinement context, narrowed to the one thing Berth's rules do with it. */
export interface IssueSink {
  addIssue(issue: { code: "custom"; message: string; path: PropertyKey[]; params: { code: ProblemCode } }): void;
}

/** Report a Berth rule violation from inside a zod refinement. */
export function report(ctx: IssueSink, code: ProblemCode, path: ProblemPath, message: string): void {
  ctx.addIssue({ code: "custom", message, path, params: { code } });
}

/** A finding of one of Berth's own rules, before it is handed to zod or returned to a caller. */
export type RuleProblem = SpecProblem & { code: ProblemCode };

export function reportProblem(ctx: IssueSink, problem: RuleProblem): void {
  report(ctx, problem.code, problem.path, problem.message);
}

function isProblemCode(value: unknown): value is ProblemCode {
  return typeof value === "string" && (PROBLEM_CODES as readonly string[]).includes(value);
}

export function problemsFromZodError(error: z.ZodError): SpecProblem[] {
  return error.issues.map((issue) => {
    const own = issue.code === "custom" ? issue.params?.["code"] : undefined;
    return {
      code: isProblemCode(own) ? own : issue.code,
      path: issue.path.map((key) => (typeof key === "number" ? key : String(key))),
      message: issue.message,
    };
  });
}

/** Thrown by code that was handed a spec it cannot use; callers should have validated first. */
export class InvalidSandboxSpecError extends Error {
  readonly problems: SpecProblem[];
  constructor(problems: SpecProblem[]) {
    super(`invalid sandbox spec: ${problems.map((p) => `${p.path.join(".") || "(spec)"}: ${p.message}`).join("; ")}`);
    this.name = "InvalidSandboxSpecError";
    this.problems = problems;
  }
}

/** Render a path the way messages name fields: workspace.claim.size, volumes[1].mountPath. */
export function fieldName(path: ProblemPath): string {
  return path.reduce<string>((text, key) => (typeof key === "number" ? `${text}[${key}]` : text ? `${text}.${key}` : key), "");
}

/** The path a field name stands for, as fieldName writes it ("volumes[0].pvc.claimName"). */
export function pathOfFieldName(field: string): ProblemPath {
  return [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((match) => (match[2] === undefined ? match[1]! : Number(match[2])));
}
