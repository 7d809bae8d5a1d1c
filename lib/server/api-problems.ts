import type { KubeApiError } from "../kube/kube-errors.ts";
import type { CommandNotStartedError } from "../kube/pod-exec.ts";
import { type QuotaExceededError, type SpecRejectedError, type RequestRejectedError, type SandboxConflictError, type TemplateConflictError, type VolumeConflictError, type VolumeFileError } from "../sandboxes/lifecycle-errors.ts";
import type { SandboxNameTakenError } from "../store/index.ts";
import { problem, type ProblemDetails } from "./problem-details.ts";
import type { PayloadTooLargeError, UnreadableBodyError } from "./request-body.ts";
import { simulatorProblem } from "./simulator-route.ts";
import { logOf } from "../platform/logger.ts";

// Domain errors as the right status and problem+json, for the endpoint wrapper
// (endpoint-route.ts): nothing else leaks a stack trace.

export class ClusterUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ClusterUnavailableError";
  }
}

/** A request Berth cannot take, about one field: `path` [] is the body as a whole, a header or parameter by its name. */
export class BadRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly path: (string | number)[] = [],
  ) {
    super(message);
    this.name = "BadRequestError";
  }
}

/**
 * Errors are told apart by name, not instanceof: Next.js may bundle a module once for
 * instrumentation (where the runtime that throws was built) and again for a route, and the two
 * copies' classes are not the same object.
 */
function named<T extends Error>(error: unknown, name: string): error is T {
  return error instanceof Error && error.name === name;
}

export function problemFor(error: unknown): ProblemDetails {
  const simulator = simulatorProblem(error);
  if (simulator) return simulator;
  if (named<SpecRejectedError>(error, "SpecRejectedError")) {
    return problem(400, "invalid-spec", "The sandbox spec is not valid", "Correct the fields listed in errors and send it again.", error.problems);
  }
  if (named<QuotaExceededError>(error, "QuotaExceededError")) {
    return problem(403, "quota-exceeded", `The namespace is at its limit (${error.limit})`, error.message, error.problems);
  }
  if (named<SandboxConflictError>(error, "SandboxConflictError")) {
    return problem(409, "conflict", "The sandbox conflicts with what exists", error.message, error.problems);
  }
  if (named<SandboxNameTakenError>(error, "SandboxNameTakenError")) {
    return problem(409, "name-taken", "The name is taken", error.message, [{ code: "name.taken", path: ["name"], message: error.message }]);
  }
  if (named<RequestRejectedError>(error, "RequestRejectedError")) {
    return problem(400, error.code, "The request is not valid", "Correct the fields listed in errors and send it again.", error.problems);
  }
  if (named(error, "VolumeNotFoundError")) return problem(404, "volume-not-found", "No such claim", error.message);
  if (named(error, "SnapshotNotFoundError")) return problem(404, "snapshot-not-found", "No such snapshot", error.message);
  if (named(error, "PersistentVolumeNotFoundError")) return problem(404, "persistent-volume-not-found", "No such volume", error.message);
  if (named(error, "VolumeInUseError")) return problem(409, "volume-in-use", "The claim is in use", error.message);
  if (named<VolumeConflictError>(error, "VolumeConflictError")) {
    return problem(409, "volume-conflict", "The claim conflicts with what exists", error.message, [{ code: "volume.conflict", path: error.path, message: error.message }]);
  }
  if (named(error, "VolumeStateError")) return problem(409, "volume-wrong-state", "The claim cannot do that now", error.message);
  if (named<VolumeFileError>(error, "VolumeFileError")) {
    return problem(error.status, error.code, "The claim's files cannot be read so", error.message, error.aboutPath ? [{ code: error.code, path: ["path"], message: error.message }] : undefined);
  }
  if (named(error, "ClaimNotFoundError")) return problem(404, "claim-not-found", "No such sandbox claim", error.message);
  if (named(error, "TemplateNotFoundError")) return problem(404, "template-not-found", "No such template", error.message);
  if (named<TemplateConflictError>(error, "TemplateConflictError")) {
    return problem(409, "template-conflict", "The template conflicts with what exists", error.message, error.path.length > 0 ? [{ code: "template.conflict", path: error.path, message: error.message }] : undefined);
  }
  if (named(error, "SandboxNotFoundError")) return problem(404, "not-found", "No such sandbox", error.message);
  if (named(error, "NodeNotFoundError")) return problem(404, "node-not-found", "No such node", error.message);
  if (named(error, "MaintenanceRunNotFoundError")) return problem(404, "maintenance-not-found", "No such maintenance run", error.message);
  if (named(error, "InvalidCursorError")) {
    return problem(400, "invalid-cursor", "The cursor is not valid", error.message, [{ code: "cursor.invalid", path: ["cursor"], message: error.message }]);
  }
  if (named(error, "RateLimitedError")) return problem(429, "rate-limited", "Too many requests", error.message);
  if (named<PayloadTooLargeError>(error, "PayloadTooLargeError")) return problem(413, "body-too-large", "The request body is too large", error.message, [{ code: "body-too-large", path: [], message: error.message }]);
  if (named<UnreadableBodyError>(error, "UnreadableBodyError")) return problem(400, error.code, "The request body cannot be read", error.message, error.problems.length > 0 ? error.problems : undefined);
  if (named<BadRequestError>(error, "BadRequestError")) return problem(400, error.code, "The request is not valid", error.message, [{ code: error.code, path: error.path, message: error.message }]);
  if (named(error, "SandboxStateError")) return problem(409, "wrong-state", "The sandbox cannot do that now", error.message);
  if (named<CommandNotStartedError>(error, "CommandNotStartedError")) {
    const why = `${JSON.stringify(error.program)} could not be started in the container: ${error.message}`;
    return problem(400, "command-not-started", "The command could not be started", `${why}. Name a program the image has (for example ["sh", "-c", "…"]).`, [{ code: "command.not-started", path: ["command", 0], message: why }]);
  }
  if (named(error, "ExecTimeoutError")) return problem(504, "exec-timeout", "The command timed out", error.message);
  if (named(error, "ClusterUnavailableError")) return problem(503, "cluster-unavailable", "The Kubernetes cluster cannot serve this", error.message);
  if (named(error, "ConfigError")) return problem(500, "configuration", "Berth's configuration is invalid", error.message);
  if (named<KubeApiError>(error, "KubeApiError") && error.code === 403) {
    // Kubernetes refused the person: its own words name the verb, the resource and the namespace.
    return problem(403, "forbidden", "Kubernetes does not allow this", error.message);
  }
  if (named<KubeApiError>(error, "KubeApiError")) {
    const status = error.code === 429 ? 429 : error.code >= 500 ? 502 : error.code;
    return problem(status, `kubernetes-${error.reason.toLowerCase() || "error"}`, "The Kubernetes API refused the request", `${error.message} (HTTP ${error.code} ${error.reason})`);
  }
  logOf("api").error({ err: error }, "unexpected error in an API route");
  return problem(500, "internal", "Something went wrong in Berth", "The error is in the server log; nothing half-made was left behind.");
}
