import { type ExecStatus, badRequestStatus } from "./exec-status.ts";

export interface ExecOptions {
  command: string[];
  container?: string;
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/**
 * The API server reads PodExecOptions from the query with its parameter codec: a boolean is
 * false only when absent, "false" or "0" (runtime.Convert_Slice_string_To_bool), so both
 * client-node's `stdout=true` and the kubelet's `output=1` style parse.
 */
function queryBoolean(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null) return false;
  return value !== "0" && value.toLowerCase() !== "false";
}

/** The pod a request targets, from `/api/v1/namespaces/{namespace}/pods/{name}/exec`. */
export function execTarget(url: string): { namespace: string; pod: string } | undefined {
  const { pathname } = new URL(url, "http://localhost");
  const match = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec\/?$/.exec(pathname);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  return { namespace: decodeURIComponent(match[1]), pod: decodeURIComponent(match[2]) };
}

export function parseExecOptions(url: string): ExecOptions | { error: ExecStatus & { code: number } } {
  const query = new URL(url, "http://localhost").searchParams;
  const tty = queryBoolean(query, "tty");
  const stdin = queryBoolean(query, "stdin");
  const stdout = queryBoolean(query, "stdout");
  // With a TTY there is only one output stream, as on a terminal: the kubelet drops stderr.
  const stderr = queryBoolean(query, "stderr") && !tty;
  if (!stdin && !stdout && !stderr) return { error: badRequestStatus("you must specify at least 1 of stdin, stdout, stderr") };
  const container = query.get("container") ?? undefined;
  return {
    command: query.getAll("command"),
    ...(container === undefined || container === "" ? {} : { container }),
    stdin,
    stdout,
    stderr,
    tty,
  };
}
