import { ApiException } from "@kubernetes/client-node";

// client-node reports a failed request as an ApiException whose body is the raw JSON of the
// Status. Everything above lib/kube sees this one shape instead.

export class KubeApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "KubeApiError";
  }

  get notFound(): boolean {
    return this.code === 404;
  }

  get alreadyExists(): boolean {
    return this.code === 409 && this.reason === "AlreadyExists";
  }

  get conflict(): boolean {
    return this.code === 409 && this.reason === "Conflict";
  }
}

export function toKubeApiError(error: unknown): unknown {
  if (!(error instanceof ApiException)) return error;
  let reason = "Unknown";
  let message = `Kubernetes API error ${error.code}`;
  try {
    const status = JSON.parse(String(error.body)) as { reason?: string; message?: string };
    reason = status.reason ?? reason;
    message = status.message ?? message;
  } catch {
    // Not a Status body (a proxy's HTML page, say): keep the generic message.
  }
  return new KubeApiError(error.code, reason, message, { cause: error });
}

/** Runs a client-node call and rethrows its failure as a KubeApiError. */
export async function kube<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toKubeApiError(error);
  }
}

/** A read of something that may not exist: null then, rather than an error. */
export async function nullIfNotFound<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await kube(call);
  } catch (error) {
    if (error instanceof KubeApiError && error.notFound) return null;
    throw error;
  }
}
