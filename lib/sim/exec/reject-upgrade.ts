import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { type ExecStatus, serializeStatus } from "./exec-status.ts";

/**
 * Answers an upgrade request with an ordinary HTTP error instead of switching protocols, the way
 * the API server refuses an exec before any stream exists (unknown pod or container, no streams
 * asked for): clients then see the Status as the response body.
 */
export function rejectUpgrade(socket: Duplex, status: ExecStatus & { code: number }): void {
  const body = serializeStatus(status, true);
  const head = [
    `HTTP/1.1 ${status.code} ${STATUS_CODES[status.code] ?? "Error"}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
  ];
  if (socket.writable) socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
  else socket.destroy();
}
