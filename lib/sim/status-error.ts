// Errors as the Kubernetes API server reports them: a metav1.Status with the right reason and
// code, so that client-node and kubectl see exactly what a real cluster would send.

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface Status {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure" | "Success";
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
  code: number;
}

export interface ResourceRef {
  /** API group, "" for core. */
  group: string;
  /** Plural resource name, e.g. "pods". */
  resource: string;
}

const qualified = ({ group, resource }: ResourceRef) => (group ? `${resource}.${group}` : resource);

export class StatusError extends Error {
  constructor(readonly status: Status) {
    super(status.message);
    this.name = "StatusError";
  }

  get code(): number {
    return this.status.code;
  }

  static of(code: number, reason: string, message: string, details?: Status["details"]): StatusError {
    return new StatusError({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, ...(details ? { details } : {}), code });
  }

  static notFound(ref: ResourceRef, name: string): StatusError {
    return StatusError.of(404, "NotFound", `${qualified(ref)} "${name}" not found`, { name, group: ref.group || undefined, kind: ref.resource });
  }

  static alreadyExists(ref: ResourceRef, name: string): StatusError {
    return StatusError.of(409, "AlreadyExists", `${qualified(ref)} "${name}" already exists`, { name, group: ref.group || undefined, kind: ref.resource });
  }

  static conflict(ref: ResourceRef, name: string, why = "the object has been modified; please apply your changes to the latest version and try again"): StatusError {
    return StatusError.of(409, "Conflict", `Operation cannot be fulfilled on ${qualified(ref)} "${name}": ${why}`, { name, group: ref.group || undefined, kind: ref.resource });
  }

  static invalid(kind: string, group: string, name: string, causes: StatusCause[]): StatusError {
    const list = causes.map((cause) => `${cause.field}: ${cause.message}`).join(", ");
    const qualifiedKind = group ? `${kind}.${group}` : kind;
    return StatusError.of(422, "Invalid", `${qualifiedKind} "${name}" is invalid: ${causes.length > 1 ? `[${list}]` : list}`, {
      name,
      group: group || undefined,
      kind,
      causes: causes.map((cause) => ({ reason: cause.reason ?? "FieldValueInvalid", message: cause.message, field: cause.field })),
    });
  }

  static badRequest(message: string): StatusError {
    return StatusError.of(400, "BadRequest", message);
  }

  static gone(message: string): StatusError {
    return StatusError.of(410, "Expired", message);
  }

  static tooManyRequests(message: string, retryAfterSeconds?: number, causes?: StatusCause[]): StatusError {
    return StatusError.of(429, "TooManyRequests", message, { ...(retryAfterSeconds ? { retryAfterSeconds } : {}), ...(causes ? { causes } : {}) });
  }

  static methodNotAllowed(message: string): StatusError {
    return StatusError.of(405, "MethodNotAllowed", message);
  }

  static internal(message: string): StatusError {
    return StatusError.of(500, "InternalError", `Internal error occurred: ${message}`);
  }
}

/**
 * What a controller reports of a failed API call: a Status error's message (the call was refused
 * as a real API server refuses it); anything else is a bug in the simulation and is rethrown.
 */
export function apiFailure(error: unknown): string {
  if (error instanceof StatusError) return error.message;
  throw error;
}

/**
 * The API server's own throttle (its in-flight limit, API Priority and Fairness) turning a request
 * away before any handler sees it. It answers plain text with a Retry-After, not a Status.
 */
export class Throttled extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("Too many requests, please try again later.");
    this.name = "Throttled";
  }
}
