import { Server, type IncomingMessage } from "node:http";

// Next.js route handlers never see the TCP connection, and the X-Forwarded-For header it adds is
// kept when a client sends its own. Proxy sign-in must know who is really on the other end of the
// socket, and none mode which local address was reached; so every request entering any HTTP
// server of this process is stamped with both, over whatever the client sent under those names.

export const PEER_ADDRESS_HEADER = "x-berth-peer-address";
export const LOCAL_ADDRESS_HEADER = "x-berth-local-address";

const STAMPED = Symbol.for("berth.peerAddressStamp");

function stamp(request: IncomingMessage): void {
  request.headers[PEER_ADDRESS_HEADER] = request.socket?.remoteAddress ?? "";
  request.headers[LOCAL_ADDRESS_HEADER] = request.socket?.localAddress ?? "";
}

/** Installs the stamp once per process (before the first request is served). */
export function stampPeerAddresses(): void {
  const prototype = Server.prototype as Server & { [STAMPED]?: true };
  if (prototype[STAMPED]) return;
  const emit = prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if ((event === "request" || event === "upgrade") && args[0]) stamp(args[0] as IncomingMessage);
    return emit.call(this, event, ...args);
  } as Server["emit"];
  prototype[STAMPED] = true;
}

/** Whether an address is this machine's own (127.0.0.0/8, ::1, or IPv4 loopback mapped into IPv6). */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  if (!address) return false;
  const plain = address.replace(/^::ffff:/i, "");
  return plain === "::1" || /^127\.\d+\.\d+\.\d+$/.test(plain);
}
