import { problemDetailsSchema } from "@/lib/server/problem-details.ts";

// A write to Berth's API from the browser: ok with the answer's body, or the problem+json's
// message and the fields it names, ready to be put next to those fields.

export type SendResult = { ok: true; body: unknown } | { ok: false; message: string; fields: { field: string; message: string }[] };

export async function sendJson(method: "PUT" | "PATCH" | "DELETE" | "POST", path: string, body?: unknown): Promise<SendResult> {
  let response: Response;
  try {
    response = await fetch(path, { method, ...(body === undefined ? {} : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }) });
  } catch (error) {
    return { ok: false, message: `Berth did not answer (${(error as Error).message}); nothing was changed. Try again.`, fields: [] };
  }
  const answer: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, body: answer };
  const problem = problemDetailsSchema.safeParse(answer);
  if (!problem.success) return { ok: false, message: `Berth answered HTTP ${response.status}; nothing was changed.`, fields: [] };
  return { ok: false, message: problem.data.detail, fields: problem.data.errors ?? [] };
}
