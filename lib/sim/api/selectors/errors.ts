// The error a selector parser throws: kube-apiserver answers every malformed or unsupported
// labelSelector / fieldSelector with 400 BadRequest and the parser's message.

export interface SelectorStatus {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure";
  message: string;
  reason: "BadRequest";
  code: 400;
}

export class SelectorError extends Error {
  override readonly name = "SelectorError";
  readonly code = 400;
  readonly reason = "BadRequest";

  toStatus(): SelectorStatus {
    return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: this.message, reason: this.reason, code: this.code };
  }
}
