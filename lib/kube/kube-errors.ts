import { ApiException } from "@kubernetes/client-node";

// client-node reports a failed request as an ApiException whose body is the raw JSON of the
// Status (or plain text, from the API server's own throttle). Everything above lib/kube sees
// this one shape instead.

export interface KubeApiErrorDetails extends ErrorOptions {
  /** The Retry-After the answer carried, in seconds. */
  retryAfterSeconds?: number | null;
  /** The reasons of the Status's causes (DisruptionBudget, FieldValueInvalid, …). */
  causes?: string[];
}

export class KubeApiError extends Error {
  readonly retryAfterSeconds: number | null;
  readonly causes: string[];

  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    details: KubeApiErrorDetails = {},
  ) {
    super(message, details);
    this.name = "KubeApiError";
    this.retryAfterSeconds = details.retryAfterSeconds ?? null;
    this.causes = details.causes ?? [];
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

  /**
   * The API server turned the request away before doing anything (its in-flight limit, API
   * Priority and Fairness): 429 with a Retry-After. A budget refusing an eviction is a 429 too,
   * but one with a DisruptionBudget cause: that is an answer, not a throttle.
   */
  get throttled(): boolean {
    return this.code === 429 && this.retryAfterSeconds !== null && !this.causes.includes("DisruptionBudget");
  }
}

function retryAfterOf(headers: Record<string, string> | undefined): number | null {
  const value = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === "retry-after")?.[1];
  const seconds = value === undefined ? NaN : Number(value);
  return Number.isInteger(seconds) && seconds >= 0 ? seconds : null;
}

export function toKubeApiError(error: unknown): unknown {
  if (!(error instanceof ApiException)) return error;
  let reason = "Unknown";
  let message = `Kubernetes API error ${error.code}`;
  let causes: string[] = [];
  try {
    const status = JSON.parse(String(error.body)) as { reason?: string; message?: string; details?: { causes?: { reason?: string }[] } };
    reason = status.reason ?? reason;
    message = status.message ?? message;
    causes = (status.details?.causes ?? []).flatMap((cause) => (cause.reason ? [cause.reason] : []));
  } catch {
    // Not a Status body (the throttle's plain text, a proxy's HTML page): keep the generic message.
    if (error.code === 429) [reason, message] = ["TooManyRequests", String(error.body).trim() || message];
  }
  return new KubeApiError(error.code, reason, message, { cause: error, retryAfterSeconds: retryAfterOf(error.headers as Record<string, string> | undefined), causes });
}

/** Throttled answers are tried again this many times, as client-go does (it tries ten). */
const THROTTLED_RETRIES = 5;
let throttledAnswers = 0;

/**
 * How many throttled answers this process's requests have had so far: compared before and after
 * some work, it says whether the API server pushed back meanwhile (for work that can go slower).
 */
export const throttledSoFar = (): number => throttledAnswers;

/**
 * Runs a client-node call and rethrows its failure as a KubeApiError. A throttled answer is
 * waited out (its Retry-After) and the call made again: the server did nothing with it.
 */
export async function kube<T>(call: () => Promise<T>): Promise<T> {
  for (let retries = 0; ; retries++) {
    try {
      return await call();
    } catch (error) {
      const failure = toKubeApiError(error);
      if (!(failure instanceof KubeApiError && failure.throttled) || retries === THROTTLED_RETRIES) throw failure;
      throttledAnswers++;
      await new Promise((resolve) => setTimeout(resolve, failure.retryAfterSeconds! * 1000));
    }
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
