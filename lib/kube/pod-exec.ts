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

/** A command's output, bytes as they came, collected up to a limit. */
export interface ExecBytesResult {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
}

export class ExecOutputTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`The command wrote more than ${limitBytes} bytes; it was stopped.`);
    this.name = "ExecOutputTooLargeError";
  }
}

function byteCollector(limitBytes: number, onOverflow: () => void): { stream: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limitBytes) onOverflow();
      else chunks.push(chunk);
      done();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

interface ExecRun {
  finished: Promise<number>;
  close(): void;
}

/** Starts the command; `finished` is its exit code, or why it could not run. */
function startExec(connection: ClusterConnection, target: { namespace: string; pod: string; container: string }, command: string[], stdout: Writable, stderr: Writable): ExecRun {
  let socket: { close(): void } | undefined;
  let closeWhenOpen = false;
  const finished = new Promise<number>((resolve, reject) => {
    new Exec(connection.kubeConfig)
      .exec(target.namespace, target.pod, target.container, command, stdout, stderr, null, false, (status: V1Status) => {
        if (status.status === "Success") return resolve(0);
        const exitCode = status.details?.causes?.find((cause) => cause.reason === "ExitCode")?.message;
        if (exitCode !== undefined) return resolve(Number(exitCode));
        const message = status.message ?? "the command could not be run";
        if (RUNTIME_COULD_NOT_START.test(message)) return reject(new CommandNotStartedError(command[0] ?? "", message));
        reject(new KubeApiError(status.code ?? 500, status.reason ?? "InternalError", message));
      })
      .then((opened) => {
        socket = opened;
        if (closeWhenOpen) opened.close();
      })
      .catch((error: unknown) => reject(toKubeApiError(error)));
  });
  return {
    finished,
    close: () => {
      if (socket) socket.close();
      else closeWhenOpen = true;
    },
  };
}

/** The run's exit code, or the first of: it timed out, it was stopped for a reason of the caller's. */
async function awaitExec(run: ExecRun, timeoutSeconds: number, stopped: Promise<never>): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      run.close();
      reject(new ExecTimeoutError(timeoutSeconds));
    }, timeoutSeconds * 1000);
  });
  try {
    return await Promise.race([run.finished, timedOut, stopped]);
  } finally {
    clearTimeout(timer);
  }
}

export async function execInPod(
  connection: ClusterConnection,
  target: { namespace: string; pod: string; container: string },
  command: string[],
  timeoutSeconds: number,
): Promise<ExecResult> {
  const stdout = collector();
  const stderr = collector();
  const exitCode = await awaitExec(startExec(connection, target, command, stdout.stream, stderr.stream), timeoutSeconds, new Promise<never>(() => {}));
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * The command's standard output as bytes (a file, a listing of names that need not be UTF-8),
 * stopped with ExecOutputTooLargeError once it passes `maxStdoutBytes`.
 */
export async function execInPodForBytes(
  connection: ClusterConnection,
  target: { namespace: string; pod: string; container: string },
  command: string[],
  options: { timeoutSeconds: number; maxStdoutBytes: number },
): Promise<ExecBytesResult> {
  let overflow!: () => void;
  const stopped = new Promise<never>((_resolve, reject) => {
    overflow = () => reject(new ExecOutputTooLargeError(options.maxStdoutBytes));
  });
  // Output can still arrive after the exit status: an overflow then is nobody's to hear.
  stopped.catch(() => {});
  const stdout = byteCollector(options.maxStdoutBytes, () => {
    run.close();
    overflow();
  });
  const stderr = collector();
  const run = startExec(connection, target, command, stdout.stream, stderr.stream);
  const exitCode = await awaitExec(run, options.timeoutSeconds, stopped);
  return { exitCode, stdout: stdout.bytes(), stderr: stderr.text() };
}
