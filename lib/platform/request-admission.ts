import { Server, type IncomingMessage, type ServerResponse } from "node:http";
import { TurnQueue } from "./turn-queue.ts";

// Node.js hands a server every request whose bytes arrived since the last turn of the event loop
// in one go, and Next.js does a millisecond or more of work on each before it first waits. When
// 300 browsers reconnect their event streams at once (every tab, after Berth restarted), a health
// probe that arrives among them waits for all 300: half a second, and the kubelet counts a failed
// probe. So, like the Kubernetes API server's priority and fairness in small: a health probe goes
// in at once; every other request waits its turn, at most ADMITTED_PER_TURN of them entering per
// turn of the event loop, first come first served. Nothing is refused and nothing is capped: a
// quiet server admits every request in the turn it arrives.

/** Requests let in per turn of the event loop, once more than that are waiting. */
export const ADMITTED_PER_TURN = 2;

const INSTALLED = Symbol.for("berth.requestAdmission");

const atOnce = new WeakSet<Server>();

/**
 * Requests to this server go in at once. For the servers of this process that stand for other
 * processes (the embedded cluster's API server, the embedded sign-in provider): what Berth asks
 * them while it serves a request must not wait behind the requests queued for Berth itself.
 */
export function admitAtOnce<S extends Server>(server: S): S {
  atOnce.add(server);
  return server;
}

/** The health report, readiness and liveness. */
const HEALTH_PROBE_PATHS = new Set(["/api/health", "/api/health/ready", "/api/health/live"]);

/** What goes in at once: the probe that says whether Berth is alive must not wait behind a crowd. */
export function isHealthProbe(request: Pick<IncomingMessage, "method" | "url">): boolean {
  return (request.method === "GET" || request.method === "HEAD") && HEALTH_PROBE_PATHS.has(request.url ?? "");
}

export interface AdmissionOptions {
  /** May answer a request as it arrives, before anything else sees it (true: answered). */
  answerFirst?: (request: IncomingMessage, response: ServerResponse) => boolean;
  queue?: TurnQueue;
}

/**
 * Puts the HTTP servers of this process (but those marked admitAtOnce) behind one admission
 * queue, once per process, before the first request. Install it before anything else that wraps
 * Server.prototype.emit, so that those run as the request arrives, not when it is let in.
 */
export function admitRequestsInTurn({ answerFirst = () => false, queue = new TurnQueue(ADMITTED_PER_TURN) }: AdmissionOptions = {}): void {
  const prototype = Server.prototype as Server & { [INSTALLED]?: true };
  if (prototype[INSTALLED]) return;
  const emit = prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== "request" || atOnce.has(this)) return emit.call(this, event, ...args);
    const [request, response] = args as [IncomingMessage, ServerResponse];
    if (answerFirst(request, response)) return true;
    if (isHealthProbe(request)) return emit.call(this, event, ...args);
    queue.enter(() => emit.call(this, event, ...args));
    return true;
  } as Server["emit"];
  prototype[INSTALLED] = true;
}
