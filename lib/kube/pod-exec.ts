import { Writable } from "node:stream";
import { Exec, type V1Status } from "@kubernetes/client-node";
import type { ClusterConnection } from "./cluster-connection.ts";
import { KubeApiError, toKubeApiError } from "./kube-errors.ts";

// A command run in a container through the Kubernetes exec API (WebSocket), collected whole.

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export class ExecTimeoutError extends Error {
  constructor(readonly timeoutSeconds: number) {
    super(`The command did not finish within ${timeoutSeconds} s and was stopped.`);
    this.name = "ExecTimeoutError";
  }
}

/**
 * The container runtime could not start the program (no such file, not executable): the
 * command never ran, so there is no exit code. The API server says so as a 500 InternalError
 * carrying the runtime's words ("OCI runtime exec failed: … unable to start container process:
 * exec: \"x\": executable file not found in $PATH"); it is the caller's command that is wrong.
 */
export class CommandNotStartedError extends Error {
  constructor(
    readonly program: string,
    message: string,
  ) {
    super(message);
    this.name = "CommandNotStartedError";
  }
}

const RUNTIME_COULD_NOT_START = /unable to start container process|executable file (`[^`]*` )?not found/;

const MAX_OUTPUT_CHARS = 1_000_000;

function collector(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      // Keep the tail: that is where a failing command says why.
      text = (text + chunk.toString("utf8")).slice(-MAX_OUTPUT_CHARS);
      done();
    },
  });
  return { stream, text: () => text };
}

export async function execInPod(
  connection: ClusterConnection,
  target: { namespace: string; pod: string; container: string },
  command: string[],
  timeoutSeconds: number,
): Promise<ExecResult> {
  const stdout = collector();
  const stderr = collector();
  let socket: { close(): void } | undefined;
  const finished = new Promise<ExecResult>((resolve, reject) => {
    new Exec(connection.kubeConfig)
      .exec(target.namespace, target.pod, target.container, command, stdout.stream, stderr.stream, null, false, (status: V1Status) => {
        if (status.status === "Success") return resolve({ exitCode: 0, stdout: stdout.text(), stderr: stderr.text() });
        const exitCode = status.details?.causes?.find((cause) => cause.reason === "ExitCode")?.message;
        if (exitCode !== undefined) return resolve({ exitCode: Number(exitCode), stdout: stdout.text(), stderr: stderr.text() });
        const message = status.message ?? "the command could not be run";
        if (RUNTIME_COULD_NOT_START.test(message)) return reject(new CommandNotStartedError(command[0] ?? "", message));
        reject(new KubeApiError(status.code ?? 500, status.reason ?? "InternalError", message));
      })
      .then((opened) => {
        socket = opened;
      })
      .catch((error: unknown) => reject(toKubeApiError(error)));
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      socket?.close();
      reject(new ExecTimeoutError(timeoutSeconds));
    }, timeoutSeconds * 1000);
  });
  try {
    return await Promise.race([finished, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
