import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isHealthProbe } from "../platform/request-admission.ts";
import { API_SECURITY_HEADERS } from "./endpoint-route.ts";
import { HEALTH_PATHS, HEALTH_QUESTIONS, type HealthQuestion } from "../domain/health.ts";
import { healthAnswer, recentHealth } from "./health.ts";
import type { Runtime } from "./runtime.ts";

// The kubelet's probes of GET /api/health (and /ready, /live), answered as they arrive, before Next.js: a request
// through Next.js costs milliseconds and several turns of the event loop, each of which a crowd
// (300 event streams reconnecting) makes long. Only what the route would tell anyone: a probe
// that carries a credential Berth reads (a cookie, a token, the proxy's user header) may be a
// signed-in person, who gets the details, so it goes to the route; so does every probe in auth
// mode none, where the route checks where the request came from.

/** Answers health probes from the last finished check once the runtime is up; false: the request goes on to the route. */
export function healthProbeAnswerer(runtime: Promise<Runtime>): (request: IncomingMessage, response: ServerResponse) => boolean {
  let ready: Runtime | null = null;
  runtime.then(
    (started) => (ready = started),
    () => {},
  );
  return (request, response) => {
    if (!ready || !isHealthProbe(request) || mayBeSignedIn(ready, request)) return false;
    const health = recentHealth(ready, { maxAgeMs: 1_000 });
    if (!health) return false;
    const answer = healthAnswer(health, false, questionOf(request.url));
    const body = JSON.stringify(answer.body);
    response.writeHead(answer.status, {
      ...API_SECURITY_HEADERS,
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
      "Cache-Control": "no-store",
      "X-Request-Id": randomUUID(),
    });
    response.end(request.method === "HEAD" ? undefined : body);
    return true;
  };
}

const questionOf = (url: string | undefined): HealthQuestion => HEALTH_QUESTIONS.find((question) => HEALTH_PATHS[question] === url) ?? "report";

function mayBeSignedIn(runtime: Runtime, request: IncomingMessage): boolean {
  const { mode, proxy } = runtime.config.auth;
  if (mode === "none") return true;
  if (request.headers.cookie !== undefined || request.headers.authorization !== undefined) return true;
  return mode === "proxy" && proxy != null && request.headers[proxy.userHeader.toLowerCase()] !== undefined;
}
