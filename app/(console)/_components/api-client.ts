import { z } from "zod";
import { problemDetailsSchema } from "@/lib/domain/problem-details.ts";

// The browser's one way to call Berth's API: the answer checked against a schema, a refusal
// turned into the server's own problem+json words (what failed, what to do, which fields), so a
// page shows them where the person acted.

export interface FieldProblem {
  field: string;
  code: string;
  message: string;
}

/** A refused or failed call: `title` says what failed, `detail` what to do, `fields` where. */
export class ApiProblem extends Error {
  constructor(
    readonly title: string,
    readonly detail: string,
    /** The HTTP status; 0 when the server did not answer. */
    readonly status: number,
    readonly fields: FieldProblem[] = [],
  ) {
    super(`${title}: ${detail}`);
    this.name = "ApiProblem";
  }

  /** Any error as an ApiProblem; one that is not (a bug, a bad answer) gets `title`. */
  static from(error: unknown, title: string): ApiProblem {
    return error instanceof ApiProblem ? error : new ApiProblem(title, error instanceof Error ? error.message : String(error), 0);
  }
}

async function problemOf(response: Response): Promise<ApiProblem> {
  const parsed = problemDetailsSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) return new ApiProblem(`The server answered HTTP ${response.status}`, "It did not say why; the server log has the details.", response.status);
  return new ApiProblem(parsed.data.title, parsed.data.detail, response.status, parsed.data.errors ?? []);
}

/** The session ran out (or was signed out elsewhere): sign in again and come back here. */
function sendToSignIn(): void {
  if (typeof window === "undefined") return;
  const here = `${window.location.pathname}${window.location.search}`;
  window.location.assign(`/sign-in?${new URLSearchParams({ returnTo: here })}`);
}

export interface CallOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
}

/** Calls the API; the answer parsed with `schema`, or an ApiProblem. */
export async function callApi<Schema extends z.ZodType>(path: string, schema: Schema, options: CallOptions = {}): Promise<z.infer<Schema>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? "GET",
      signal: options.signal,
      ...(options.body === undefined ? {} : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(options.body) }),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiProblem("Berth did not answer", "The request did not reach the server, so nothing was changed: check that Berth is running, then try again.", 0);
  }
  if (response.status === 401) sendToSignIn();
  if (!response.ok) throw await problemOf(response);
  return schema.parse(response.status === 204 ? null : await response.json().catch(() => null));
}

export type SendResult = { ok: true; body: unknown } | { ok: false; message: string; fields: FieldProblem[] };

/** A write whose refusal a form shows as a message and field errors rather than as a thrown error. */
export async function send(method: NonNullable<CallOptions["method"]>, path: string, body?: unknown): Promise<SendResult> {
  try {
    return { ok: true, body: await callApi(path, z.unknown(), { method, body }) };
  } catch (error) {
    const problem = ApiProblem.from(error, "The change failed");
    return { ok: false, message: problem.detail, fields: problem.fields };
  }
}
