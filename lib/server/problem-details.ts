import type { ProblemDetails } from "../domain/problem-details.ts";
import { fieldName, type SpecProblem } from "../domain/problems.ts";

// Errors as application/problem+json (RFC 9457), with Berth's stable `code` and, for input
// problems, every offending field with what to do about it.

export type { ProblemDetails };


export function problem(status: number, code: string, title: string, detail: string, problems?: SpecProblem[]): ProblemDetails {
  return {
    type: `https://berth.dev/problems/${code}`,
    title,
    status,
    detail,
    code,
    // A problem with the body as a whole (not an object, say) is named "body".
    ...(problems ? { errors: problems.map((one) => ({ field: fieldName(one.path) || "body", code: one.code, message: one.message })) } : {}),
  };
}

export function problemResponse(details: ProblemDetails): Response {
  return new Response(JSON.stringify(details), {
    status: details.status,
    headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store" },
  });
}
