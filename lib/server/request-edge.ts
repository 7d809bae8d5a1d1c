import { LOCAL_ADDRESS_HEADER, isLoopbackAddress } from "../platform/peer-address.ts";
import { problem, type ProblemDetails } from "./problem-details.ts";

// The checks every request passes before anyone asks who sent it: the Host it names (DNS
// rebinding stops here), and for a request that changes something, that its body is JSON and —
// when the browser attached the credentials by itself — that it comes from Berth's own origin.

export const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A Host Berth does not answer to: a page another site's DNS pointed at Berth. */
export function misdirected(headers: Headers, allowedHosts: string[]): ProblemDetails | null {
  const host = (headers.get("host") ?? "").toLowerCase();
  if (allowedHosts.some((allowed) => allowed.toLowerCase() === host)) return null;
  return problem(421, "host-not-allowed", "Berth does not answer to this host name", `Berth is reached at ${allowedHosts[0]}; ${JSON.stringify(host)} is not one of its names (BERTH_PUBLIC_URL, BERTH_ALLOWED_HOSTS).`);
}

/** In none mode Berth serves its own machine only: everyone who reaches it acts as Berth. */
export function offLoopback(headers: Headers): ProblemDetails | null {
  if (isLoopbackAddress(headers.get(LOCAL_ADDRESS_HEADER))) return null;
  return problem(403, "loopback-only", "Berth runs without sign-in and serves this machine only", "BERTH_AUTH_MODE=none lets everyone who reaches Berth act as Berth, so it answers only on 127.0.0.1 and ::1. Sign-in (oidc, token or proxy) is needed to serve a network.");
}

function hasBody(headers: Headers): boolean {
  return (headers.get("content-length") ?? "0") !== "0" || headers.has("transfer-encoding");
}

/** A change must be sent as JSON: a form or text/plain body is what a cross-site page can send. */
export function notJson(headers: Headers): ProblemDetails | null {
  const type = headers.get("content-type");
  if (type === null && !hasBody(headers)) return null;
  if (type !== null && /^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(type.trim())) return null;
  return problem(415, "unsupported-media-type", "Send the body as application/json", `A request that changes something must have Content-Type: application/json${type ? `, not ${type}` : ""}.`);
}

/**
 * A request the browser attached Berth's cookie to must come from Berth's own pages: its Origin
 * must be one of Berth's, or (a browser that sends none) Sec-Fetch-Site must say same-origin.
 */
export function crossSite(headers: Headers, allowedOrigins: string[]): ProblemDetails | null {
  const origin = headers.get("origin");
  if (origin !== null && origin !== "null") {
    if (allowedOrigins.includes(origin)) return null;
    return problem(403, "cross-site-request", "The request came from another site", `Requests that change something must come from ${allowedOrigins[0]}; this one came from ${origin}. Scripts should send a Kubernetes bearer token instead of a cookie.`);
  }
  if (headers.get("sec-fetch-site") === "same-origin") return null;
  return problem(403, "cross-site-request", "The request's origin is unknown", "A request that changes something with a session cookie must carry an Origin header from Berth's own pages. Scripts should send `Authorization: Bearer <Kubernetes token>` instead.");
}
