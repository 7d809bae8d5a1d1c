import type { ProblemPath, SpecProblem } from "../domain/problems.ts";

// Reading a request body without letting it hurt the server: the size is capped before a byte is
// parsed (a declared Content-Length over the cap is refused unread; a body that keeps coming is
// cut off at the cap), bytes that are not UTF-8 are refused rather than replaced, and text no
// Kubernetes object may hold — a NUL, half of a surrogate pair — is refused naming its field,
// before it can reach a shell, a label or the database.

export class PayloadTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The request body is larger than ${formatBytes(maxBytes)}, the most Berth reads (BERTH_MAX_BODY_BYTES, Helm value limits.maxBodyBytes). Send a smaller body.`);
    this.name = "PayloadTooLargeError";
  }
}

/** The body is text Berth cannot accept (400): not UTF-8, nested too deeply, or a forbidden character in a field. */
export class UnreadableBodyError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly problems: SpecProblem[] = [],
  ) {
    super(message);
    this.name = "UnreadableBodyError";
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** The body as text, at most `maxBytes` of UTF-8. */
export async function readBoundedText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    // Not read: cancelling tells the server to drop the rest instead of buffering it.
    await request.body?.cancel().catch(() => {});
    throw new PayloadTooLargeError(maxBytes);
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UnreadableBodyError("invalid-encoding", "The request body is not UTF-8: send JSON encoded as UTF-8.", [{ code: "text.invalid-encoding", path: [], message: "the body is not UTF-8" }]);
  }
}

/** Deeper than any body of Berth's API nests; a deeper one is an attack on the parsers after this. */
export const MAX_JSON_DEPTH = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be kept, or null when it can. */
function forbiddenIn(text: string): string | null {
  if (text.includes("\u0000")) return "contains a NUL character (\\u0000), which no Kubernetes object can hold; remove it";
  if (LONE_SURROGATE.test(text)) return "contains half of a UTF-16 surrogate pair (an unpaired \\ud800–\\udfff escape), which is not a character; remove it or send the whole pair";
  return null;
}

const fieldName = (path: ProblemPath) => (path.length === 0 ? "the body" : path.map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`)).join(""));

/**
 * Every string (keys included) of a parsed JSON value that holds a forbidden character, by its
 * path; refuses a value nested deeper than MAX_JSON_DEPTH. Walked with an explicit stack, so a
 * hostile depth cannot overflow the call stack.
 */
export function forbiddenText(value: unknown): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const stack: { value: unknown; path: ProblemPath }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (path.length > MAX_JSON_DEPTH) {
      const where = path.slice(0, MAX_JSON_DEPTH);
      const message = `${fieldName(where)} nests deeper than ${MAX_JSON_DEPTH} levels; no request of Berth's API needs that`;
      throw new UnreadableBodyError("too-deep", `The request body nests too deeply: ${message}.`, [{ code: "text.too-deep", path: where, message }]);
    }
    if (typeof current === "string") {
      const why = forbiddenIn(current);
      if (why) problems.push({ code: "text.forbidden-character", path, message: `${fieldName(path)} ${why}` });
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, path: [...path, index] }));
    } else if (typeof current === "object" && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        const why = forbiddenIn(key);
        if (why) problems.push({ code: "text.forbidden-character", path: [...path, key], message: `a key of ${fieldName(path)} ${why}` });
        stack.push({ value: item, path: [...path, key] });
      }
    }
  }
  return problems.reverse();
}
