import { z } from "zod";

// A write from the console (start maintenance, a simulator action): its answer checked against a
// schema, and a refusal turned into the server's own problem+json title and detail, so the page
// shows what went wrong and what to do where the person acted.

const problemSchema = z.object({ title: z.string(), detail: z.string() }).loose();

/** The server refused the action; `title` and `detail` are its problem+json words. */
export class ActionProblem extends Error {
  constructor(
    readonly title: string,
    readonly detail: string,
    readonly status: number,
  ) {
    super(`${title}: ${detail}`);
    this.name = "ActionProblem";
  }
}

/** POSTs (a JSON body when given) and returns the answer parsed with `schema`; throws ActionProblem on a refusal. */
export async function postAction<Schema extends z.ZodType>(path: string, schema: Schema, body?: unknown): Promise<z.infer<Schema>> {
  let response: Response;
  try {
    response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ActionProblem("The console does not answer", "The request did not reach the server: check that Berth is running, then try again.", 0);
  }
  const answer: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const problem = problemSchema.safeParse(answer);
    throw problem.success ? new ActionProblem(problem.data.title, problem.data.detail, response.status) : new ActionProblem(`HTTP ${response.status}`, "The server refused the request without saying why; its log has the details.", response.status);
  }
  return schema.parse(answer);
}
