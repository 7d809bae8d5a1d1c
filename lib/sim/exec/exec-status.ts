/**
 * The metav1.Status objects the kubelet (and, for v5, the API server's stream translator) writes on
 * the error channel when a command ends: staging/src/k8s.io/kubelet/pkg/cri/streaming/remotecommand/
 * exec.go and staging/src/k8s.io/apiserver/pkg/util/proxy/streamtranslator.go. The exit error's
 * text is containerd's: `error executing command [sh -c exit 3], exit code 3`.
 */

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface ExecStatus {
  status: "Success" | "Failure";
  message?: string;
  reason?: string;
  details?: { causes?: StatusCause[] };
  code?: number;
}

export function successStatus(): ExecStatus {
  return { status: "Success" };
}

/** Go prints a []string with %v as `[a b c]`. */
function goSlice(values: readonly string[]): string {
  return `[${values.join(" ")}]`;
}

export function nonZeroExitStatus(command: readonly string[], exitCode: number): ExecStatus {
  return {
    status: "Failure",
    message: `command terminated with non-zero exit code: error executing command ${goSlice(command)}, exit code ${exitCode}`,
    reason: "NonZeroExitCode",
    details: { causes: [{ reason: "ExitCode", message: String(exitCode) }] },
  };
}

/** apierrors.NewInternalError, as written when the runtime could not run the command at all. */
export function internalErrorStatus(message: string): ExecStatus {
  return {
    status: "Failure",
    message: `Internal error occurred: ${message}`,
    reason: "InternalError",
    details: { causes: [{ message }] },
    code: 500,
  };
}

/** What containerd and runc report for a program that cannot be started, wrapped by the kubelet. */
export function startFailureStatus(execId: string, cause: string): ExecStatus {
  return internalErrorStatus(
    `error executing command in container: failed to exec in container: failed to start exec "${execId}": OCI runtime exec failed: exec failed: unable to start container process: ${cause}: unknown`,
  );
}

export function badRequestStatus(message: string): ExecStatus & { code: number } {
  return { status: "Failure", message, reason: "BadRequest", code: 400 };
}

/**
 * JSON with Go's field order (TypeMeta, ListMeta as `"metadata":{}`, status, message, reason,
 * details, code) and its omitempty rules, so the bytes match what a real cluster sends.
 */
export function serializeStatus(status: ExecStatus, withTypeMeta = false): string {
  const ordered: Record<string, unknown> = withTypeMeta ? { kind: "Status", apiVersion: "v1", metadata: {} } : { metadata: {} };
  ordered.status = status.status;
  if (status.message !== undefined && status.message !== "") ordered.message = status.message;
  if (status.reason !== undefined && status.reason !== "") ordered.reason = status.reason;
  const causes = status.details?.causes?.map((cause) => {
    const entry: Record<string, string> = {};
    if (cause.reason !== undefined && cause.reason !== "") entry.reason = cause.reason;
    if (cause.message !== undefined && cause.message !== "") entry.message = cause.message;
    if (cause.field !== undefined && cause.field !== "") entry.field = cause.field;
    return entry;
  });
  if (status.details !== undefined) ordered.details = causes === undefined || causes.length === 0 ? {} : { causes };
  if (status.code !== undefined && status.code !== 0) ordered.code = status.code;
  return JSON.stringify(ordered);
}

/** Pre-v4 protocols write only a failure, as plain text (StatusError.Error() is its message). */
export function statusAsText(status: ExecStatus): string | undefined {
  return status.status === "Success" ? undefined : (status.message ?? "");
}
