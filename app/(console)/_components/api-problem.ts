import { problemDetailsSchema, type ProblemDetails } from "@/lib/server/problem-details.ts";

/**
 * A refused API call, carrying the server's problem+json, so a page can say what went wrong and
 * put each field's message next to the field.
 */
export class ApiProblemError extends Error {
  constructor(readonly problem: ProblemDetails) {
    super(`${problem.title}: ${problem.detail}`);
    this.name = "ApiProblemError";
  }
}

/** The response's problem details; a made-up one when the body is not problem+json (a proxy's page, say). */
export async function problemOf(response: Response): Promise<ProblemDetails> {
  const body: unknown = await response.json().catch(() => null);
  const parsed = problemDetailsSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  return { type: "about:blank", title: `HTTP ${response.status}`, status: response.status, detail: response.statusText || "The server answered without details.", code: "unknown" };
}

/** POST a JSON body; the parsed answer, or an ApiProblemError with the server's problem. */
export async function postJson(path: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
  if (!response.ok) throw new ApiProblemError(await problemOf(response));
  return response.json();
}
