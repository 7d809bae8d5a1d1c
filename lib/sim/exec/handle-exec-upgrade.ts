import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import {
  CLOSE_SIGNAL,
  type ChannelProtocol,
  ERROR_CHANNEL,
  STDERR_CHANNEL,
  STDIN_CHANNEL,
  STDOUT_CHANNEL,
  SUPPORTED_PROTOCOLS,
  decodeFrame,
  encodeFrame,
  negotiateProtocol,
  parseProtocolHeader,
} from "./channel-protocol.ts";
import { type ExecOptions, parseExecOptions } from "./exec-request.ts";
import { type ExecStatus, badRequestStatus, internalErrorStatus, nonZeroExitStatus, serializeStatus, statusAsText, successStatus } from "./exec-status.ts";
import { rejectUpgrade } from "./reject-upgrade.ts";
import { TextChannel } from "./text-channel.ts";

export interface ExecIo {
  /** What the client sends on stdin; ends when it closes stdin (v5) or goes away. Empty without `stdin=true`. */
  stdin: AsyncIterable<string>;
  writeStdout(text: string): void;
  writeStderr(text: string): void;
  /** Aborted when the client disconnects before the command ends: kill the command. */
  signal: AbortSignal;
}

/** How the command ended: its exit code, or a Status for a command that could not run at all. */
export type ExecOutcome = { exitCode: number } | { error: ExecStatus };

export type ExecRunner = (options: ExecOptions, io: ExecIo) => Promise<ExecOutcome>;

// One server for all upgrades: it holds no sockets itself (noServer), only the handshake logic.
const upgrader = new WebSocketServer({
  noServer: true,
  perMessageDeflate: false,
  handleProtocols: (offered) => negotiateProtocol([...offered])?.name || false,
});

/**
 * Serves `GET /api/v1/namespaces/{ns}/pods/{name}/exec?command=…` upgraded to a WebSocket, as the
 * kubelet and the API server do: runs the command through `run`, streams its output on the
 * stdout and stderr channels, writes the final Status on the error channel and closes.
 * Resolves when the session is over.
 */
export async function handleExecUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, run: ExecRunner): Promise<void> {
  const options = parseExecOptions(request.url ?? "/");
  if ("error" in options) {
    rejectUpgrade(socket, options.error);
    return;
  }
  if ((request.headers.upgrade ?? "").toLowerCase() !== "websocket") {
    rejectUpgrade(socket, badRequestStatus("the simulated cluster streams exec over WebSocket only (v5.channel.k8s.io); SPDY is not supported"));
    return;
  }
  const protocol = negotiateProtocol(parseProtocolHeader(request.headers["sec-websocket-protocol"]));
  if (protocol === undefined) {
    const offered = parseProtocolHeader(request.headers["sec-websocket-protocol"]).join(" ");
    rejectUpgrade(socket, { ...badRequestStatus(`requested protocol(s) are not supported: [${offered}]; supports [${SUPPORTED_PROTOCOLS.join(" ")}]`), code: 403 });
    return;
  }
  // A failed handshake never calls back: ws answers 400 and destroys the socket.
  const ws = await new Promise<WebSocket | undefined>((resolve) => {
    const onClose = () => resolve(undefined);
    socket.once("close", onClose);
    upgrader.handleUpgrade(request, socket, head, (client) => {
      socket.off("close", onClose);
      resolve(client);
    });
  });
  if (ws !== undefined) await runSession(ws, protocol, options, run);
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

async function runSession(ws: WebSocket, protocol: ChannelProtocol, options: ExecOptions, run: ExecRunner): Promise<void> {
  const stdin = new TextChannel();
  if (!options.stdin) stdin.end();
  const disconnected = new AbortController();
  let finished = false;
  const closed = new Promise<void>((resolve) => ws.once("close", () => resolve()));

  ws.on("message", (data, isBinary) => {
    const frame = decodeFrame(protocol, toBuffer(data), isBinary);
    if (frame === undefined) return;
    if (frame.channel === CLOSE_SIGNAL && protocol.supportsClose) {
      if (frame.payload[0] === STDIN_CHANNEL) stdin.end();
      return;
    }
    if (frame.channel === STDIN_CHANNEL && options.stdin) stdin.push(frame.payload);
    // Resize messages (channel 4) change nothing: the simulated shell has no terminal to resize.
  });
  ws.on("close", () => {
    stdin.end();
    if (!finished) disconnected.abort();
  });
  ws.on("error", () => {
    stdin.end();
    if (!finished) disconnected.abort();
  });

  const send = (channel: number, payload: Buffer): void => {
    if (ws.readyState === ws.OPEN) ws.send(encodeFrame(protocol, channel, payload));
  };
  // Tells the client the streams are up: an empty message on the lowest channel it will read.
  send(options.stdout ? STDOUT_CHANNEL : options.stderr ? STDERR_CHANNEL : ERROR_CHANNEL, Buffer.alloc(0));

  // On a terminal both streams are one, and the line discipline turns \n into \r\n.
  const terminal = (text: string) => text.replace(/\r?\n/g, "\r\n");
  const io: ExecIo = {
    stdin,
    writeStdout: (text) => {
      if (options.stdout && text !== "") send(STDOUT_CHANNEL, Buffer.from(options.tty ? terminal(text) : text));
    },
    writeStderr: (text) => {
      if (text === "") return;
      if (options.tty) io.writeStdout(text);
      else if (options.stderr) send(STDERR_CHANNEL, Buffer.from(text));
    },
    signal: disconnected.signal,
  };

  let outcome: ExecOutcome;
  try {
    outcome = await run(options, io);
  } catch (error) {
    outcome = { error: internalErrorStatus(error instanceof Error ? error.message : String(error)) };
  }
  finished = true;
  if (ws.readyState !== ws.OPEN) return;

  const status = "error" in outcome ? outcome.error : outcome.exitCode === 0 ? successStatus() : nonZeroExitStatus(options.command, outcome.exitCode);
  const payload = protocol.statusAsJson ? serializeStatus(status) : statusAsText(status);
  if (payload !== undefined) send(ERROR_CHANNEL, Buffer.from(payload));
  // As the API server does: the status, then a close frame, then wait for the client to close.
  ws.close(1000);
  await closed;
}
