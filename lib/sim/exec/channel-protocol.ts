/**
 * The Kubernetes remote-command channel protocols over WebSocket (k8s.io/apimachinery wsstream,
 * kubelet and API server remotecommand): every message starts with the channel it belongs to.
 * Binary protocols carry the channel as a byte; the base64 ones as an ASCII digit followed by
 * base64 text. v4 made the error channel carry a JSON Status with the exit code; v5 added the
 * CLOSE signal (channel 255 + the channel being closed), which is how a client ends stdin.
 */

export const STDIN_CHANNEL = 0;
export const STDOUT_CHANNEL = 1;
export const STDERR_CHANNEL = 2;
export const ERROR_CHANNEL = 3;
export const RESIZE_CHANNEL = 4;
export const CLOSE_SIGNAL = 255;

export const V5_PROTOCOL = "v5.channel.k8s.io";
export const V4_PROTOCOL = "v4.channel.k8s.io";
export const V4_BASE64_PROTOCOL = "v4.base64.channel.k8s.io";
export const V1_PROTOCOL = "channel.k8s.io";
export const V1_BASE64_PROTOCOL = "base64.channel.k8s.io";

export interface ChannelProtocol {
  /** As negotiated; "" when the client asked for none (served as channel.k8s.io, like the kubelet). */
  name: string;
  binary: boolean;
  /** v4 and later: the error channel carries a JSON Status, also on success. */
  statusAsJson: boolean;
  /** v5: the client may half-close stdin. */
  supportsClose: boolean;
}

const PROTOCOLS: readonly ChannelProtocol[] = [
  { name: V5_PROTOCOL, binary: true, statusAsJson: true, supportsClose: true },
  { name: V4_PROTOCOL, binary: true, statusAsJson: true, supportsClose: false },
  { name: V4_BASE64_PROTOCOL, binary: false, statusAsJson: true, supportsClose: false },
  { name: V1_PROTOCOL, binary: true, statusAsJson: false, supportsClose: false },
  { name: V1_BASE64_PROTOCOL, binary: false, statusAsJson: false, supportsClose: false },
];

export const SUPPORTED_PROTOCOLS: readonly string[] = PROTOCOLS.map((protocol) => protocol.name);

/**
 * Picks the first protocol in the client's order of preference that is served, as the Go
 * handshake does; undefined when the client offered some and none is served.
 */
export function negotiateProtocol(offered: readonly string[]): ChannelProtocol | undefined {
  if (offered.length === 0) return { name: "", binary: true, statusAsJson: false, supportsClose: false };
  for (const name of offered) {
    const protocol = PROTOCOLS.find((candidate) => candidate.name === name);
    if (protocol !== undefined) return protocol;
  }
  return undefined;
}

export function parseProtocolHeader(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(",") : (header ?? "");
  return text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

export function encodeFrame(protocol: ChannelProtocol, channel: number, payload: Buffer): Buffer | string {
  if (protocol.binary) return Buffer.concat([Buffer.from([channel]), payload]);
  return `${String.fromCharCode(48 + channel)}${payload.toString("base64")}`;
}

export interface Frame {
  channel: number;
  payload: Buffer;
}

export function decodeFrame(protocol: ChannelProtocol, message: Buffer, isBinary: boolean): Frame | undefined {
  if (message.length === 0) return undefined;
  if (protocol.binary || isBinary) return { channel: message[0] ?? 0, payload: message.subarray(1) };
  const text = message.toString("latin1");
  return { channel: text.charCodeAt(0) - 48, payload: Buffer.from(text.slice(1), "base64") };
}
