import type { IncomingMessage, ServerResponse } from "node:http";
import { isRecord, type KubeObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import { isProtobufBody, type Encoding } from "./media-types.ts";
import { KubeProtobuf, PROTOBUF_MEDIA_TYPE, ProtobufCodecError } from "./protobuf/kube-protobuf.ts";

const MAX_BODY_BYTES = 3 * 1024 * 1024;

let protobuf: KubeProtobuf | undefined;
/** The protobuf codec, made on first use: most clients never ask for protobuf. */
export const kubeProtobuf = () => (protobuf ??= new KubeProtobuf());

/** Whether objects of this apiVersion and kind have a protobuf form: built-in kinds do, custom resources do not. */
export const hasProtobufForm = (apiVersion: string, kind: string) => kubeProtobuf().canEncode(apiVersion, kind);

/**
 * The body as JSON text. A protobuf body is decoded to the JSON it stands for, where the
 * resource has a protobuf form (`protobuf`); elsewhere it is refused as the API server refuses it.
 */
export async function readBody(request: IncomingMessage, options: { protobuf?: boolean } = {}): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw StatusError.of(413, "RequestEntityTooLarge", "Request entity too large: limit is 3145728");
    chunks.push(chunk as Buffer);
  }
  const bytes = Buffer.concat(chunks);
  if (!isProtobufBody(request.headers["content-type"])) return bytes.toString("utf8");
  if (!options.protobuf) {
    throw StatusError.of(415, "UnsupportedMediaType", `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`);
  }
  try {
    return JSON.stringify(kubeProtobuf().decode(bytes));
  } catch (error) {
    if (error instanceof ProtobufCodecError) throw StatusError.badRequest(`couldn't decode the protobuf body: ${error.message}`);
    throw error;
  }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw StatusError.badRequest(`couldn't get version/kind; json parse error: ${(error as Error).message}`);
  }
}

export function parseObject(text: string): KubeObject {
  const value = parseJson(text);
  if (!isRecord(value)) throw StatusError.badRequest("Object 'Kind' is missing in the request body: expected a JSON object");
  if (!isRecord(value.metadata)) value.metadata = {};
  return value as KubeObject;
}

export function sendJson(response: ServerResponse, code: number, body: unknown, headers: Record<string, string | number> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(code, { ...headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-cache, private" });
  response.end(text);
}

/**
 * An object in the representation the client asked for: protobuf when it prefers it and the
 * object's kind has a protobuf form (a custom resource is JSON whatever is asked), else JSON.
 */
export function sendObject(response: ServerResponse, code: number, body: unknown, encoding: Encoding, headers: Record<string, string | number> = {}): void {
  const typed = isRecord(body) && typeof body.apiVersion === "string" && typeof body.kind === "string";
  if (encoding === "protobuf" && typed && hasProtobufForm(body.apiVersion as string, body.kind as string)) {
    const bytes = kubeProtobuf().encode(body as KubeObject);
    response.writeHead(code, { ...headers, "Content-Type": PROTOBUF_MEDIA_TYPE, "Content-Length": bytes.length, "Cache-Control": "no-cache, private" });
    response.end(bytes);
    return;
  }
  sendJson(response, code, body, headers);
}

export function sendStatus(response: ServerResponse, error: StatusError, encoding: Encoding = "json"): void {
  const retry = error.status.details?.retryAfterSeconds;
  sendObject(response, error.code, error.status, encoding, retry ? { "Retry-After": retry } : {});
}

/** Query parameters that Kubernetes accepts as booleans ("true", "1"). */
export function queryFlag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  return value === "true" || value === "1";
}

export function queryInteger(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null || value === "") return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw StatusError.badRequest(`invalid value for ${name}: ${JSON.stringify(value)}`);
  return number;
}

/** dryRun=All, the only value Kubernetes accepts. */
export function dryRunOf(query: URLSearchParams): boolean {
  const values = query.getAll("dryRun");
  for (const value of values) {
    if (value !== "All") throw StatusError.badRequest(`Invalid dryRun value: ${JSON.stringify(value)}: supported values: "All"`);
  }
  return values.length > 0;
}
