import { problemDetailsSchema } from "../domain/problem-details.ts";

// A refused or failed call to Berth's API in the server's own problem+json words, so whoever
// called it — a page, the CLI — shows what failed, what to do, and which fields.

export interface FieldProblem {
  field: string;
  code: string;
  message: string;
}

export interface ProblemParticulars {
  fields?: FieldProblem[];
  /** Berth's stable code for the problem. */
  code?: string;
  /** The request's id in the server's log. */
  requestId?: string;
}

/** `title` says what failed, `detail` what to do, `fields` where. */
export class ApiProblem extends Error {
  readonly fields: FieldProblem[];
  readonly code: string | null;
  readonly requestId: string | null;

  constructor(
    readonly title: string,
    readonly detail: string,
    /** The HTTP status; 0 when the server did not answer. */
    readonly status: number,
    particulars: ProblemParticulars = {},
  ) {
    super(`${title}: ${detail}`);
    this.name = "ApiProblem";
    this.fields = particulars.fields ?? [];
    this.code = particulars.code ?? null;
    this.requestId = particulars.requestId ?? null;
  }

  /** Any error as an ApiProblem; one that is not (a bug, a bad answer) gets `title`. */
  static from(error: unknown, title: string): ApiProblem {
    return error instanceof ApiProblem ? error : new ApiProblem(title, error instanceof Error ? error.message : String(error), 0);
  }

  /** The request did not reach the server, or its answer did not arrive. */
  static unreachable(server: string): ApiProblem {
    return new ApiProblem("Berth did not answer", `The request did not reach ${server}, so nothing was changed: check that Berth is running there, then try again.`, 0);
  }

  /** A refusal or failure as the server answered it. */
  static async of(response: Response): Promise<ApiProblem> {
    const parsed = problemDetailsSchema.safeParse(await response.json().catch(() => null));
    const requestId = response.headers.get("x-request-id") ?? undefined;
    if (!parsed.success) return new ApiProblem(`The server answered HTTP ${response.status}`, "It did not say why; the server log has the details.", response.status, { requestId });
    return new ApiProblem(parsed.data.title, parsed.data.detail, response.status, { fields: parsed.data.errors ?? [], code: parsed.data.code, requestId: parsed.data.requestId ?? requestId });
  }
}
