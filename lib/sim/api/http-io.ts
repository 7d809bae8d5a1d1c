import type { IncomingMessage, ServerResponse } from "node:http";
import { isRecord, type KubeObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";

const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw StatusError.of(413, "RequestEntityTooLarge", "Request entity too large: limit is 3145728");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
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

export function sendJson(response: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(code, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-cache, private" });
  response.end(text);
}

export function sendStatus(response: ServerResponse, error: StatusError): void {
  const headers: Record<string, string | number> = {};
  const retry = error.status.details?.retryAfterSeconds;
  if (retry) headers["Retry-After"] = retry;
  const text = JSON.stringify(error.status);
  response.writeHead(error.code, { ...headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  response.end(text);
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
