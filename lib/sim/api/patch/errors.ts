// The one error every patch function throws: the HTTP status and reason kube-apiserver answers
// with for the same mistake, and its message. The API server turns it into a metav1.Status.

export type PatchErrorReason =
  | "BadRequest"
  | "Invalid"
  | "UnsupportedMediaType"
  | "RequestEntityTooLarge"
  // metav1.StatusReasonUnknown: what the apiserver reports (with code 500) for an error that is
  // not an APIStatus, e.g. a strategic merge patch item without its merge key.
  | "";

export interface PatchStatus {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure";
  message: string;
  reason: PatchErrorReason;
  code: number;
}

export class PatchError extends Error {
  override readonly name = "PatchError";

  /**
   * @param code the HTTP status code
   * @param reason the metav1.Status reason
   * @param message the message the apiserver puts in the Status
   * @param detail what actually went wrong, when the apiserver hides it behind a generic message
   *   (a failed JSON patch operation answers 422 "the server rejected our request due to an error
   *   in our request"); useful in logs, not part of the Status a real server sends
   */
  constructor(
    readonly code: number,
    readonly reason: PatchErrorReason,
    message: string,
    readonly detail: string = message,
  ) {
    super(message);
  }

  toStatus(): PatchStatus {
    return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: this.message, reason: this.reason, code: this.code };
  }
}

/** apierrors.NewBadRequest */
export function badRequest(message: string): PatchError {
  return new PatchError(400, "BadRequest", message);
}

/**
 * apierrors.NewGenericServerResponse(422, ...) as the patch handler uses it: the reason is Invalid
 * and the message is the generic one; the real cause is dropped (kept here as `detail`).
 */
export function unprocessable(detail: string): PatchError {
  return new PatchError(422, "Invalid", "the server rejected our request due to an error in our request", detail);
}

/** An error that is not an APIStatus reaches the client as 500 with an empty (Unknown) reason. */
export function unknownServerError(message: string): PatchError {
  return new PatchError(500, "", message);
}

/** apierrors.NewRequestEntityTooLargeError */
export function requestEntityTooLarge(message: string): PatchError {
  return new PatchError(413, "RequestEntityTooLarge", `Request entity too large: ${message}`);
}

/** The patch content types a custom resource accepts (no strategic merge patch). */
export const CUSTOM_RESOURCE_PATCH_TYPES: readonly string[] = ["application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"];

/** negotiation.NewUnsupportedMediaTypeError: the answer to a strategic merge patch of a custom resource. */
export function unsupportedMediaType(accepted: readonly string[] = CUSTOM_RESOURCE_PATCH_TYPES): PatchError {
  return new PatchError(415, "UnsupportedMediaType", `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`);
}
