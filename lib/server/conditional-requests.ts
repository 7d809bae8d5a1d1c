// HTTP conditional requests (RFC 9110 §13.1.2): If-None-Match against a response's ETag.

/**
 * True when the request's If-None-Match names this ETag (or is `*`): the client's copy is
 * current and a 304 will do. Compared weakly, as §13.1.2 asks: W/"x" matches "x".
 */
export function ifNoneMatch(headers: Headers, etag: string): boolean {
  const header = headers.get("if-none-match");
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => opaque(tag) === opaque(etag));
}
