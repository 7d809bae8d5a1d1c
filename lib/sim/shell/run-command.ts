import type { PodFileSystem } from "../filesystem/pod-file-system.ts";
import type { Utility } from "./commands/command.ts";
import { CORE_UTILITIES } from "./commands/core-utilities.ts";
import { runProgram } from "./programs.ts";
import { shellProgram } from "./shell-program.ts";
import { ExitSignal, ShellAborted, type ShellServices } from "./shell-state.ts";
import { type InputSource, NO_INPUT, type OutputSink, streamedInput, textInput } from "./streams.ts";

export interface ShellContext {
  /** The container's view of its files. */
  fs: PodFileSystem;
  /** The process environment; PATH and HOME get image-like defaults when missing. */
  env?: Readonly<Record<string, string>>;
  /** The container's working directory; `/` by default. */
  cwd?: string;
  /** Standard input: all of it, or chunks as a client sends them (read only when a command asks). */
  stdin?: string | AsyncIterable<string>;
  /** Aborting kills the process: the run stops where it is and reports exit code 137. */
  signal?: AbortSignal;
  /**
   * Aborting sends SIGTERM to the process, as the kubelet does to a container's main process.
   * Like any PID 1 it ignores it unless it is a shell that trapped TERM. Absent for exec.
   */
  terminate?: AbortSignal;
  /** The simulated cluster's clock: resolves after `ms` of simulated time. The shell never uses timers itself. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Milliseconds since the epoch on the simulated clock (for `date`); Date.now when absent. */
  now?: () => number;
  /** What `hostname` prints (the pod's name); /etc/hostname when absent. */
  hostname?: string;
  /** Called with output as it is produced, for streaming it to an exec client. */
  onStdout?: (text: string) => void;
  onStderr?: (text: string) => void;
  /**
   * How much of each stream the result keeps (characters; 16 MiB by default). Output past it
   * still goes to onStdout/onStderr: a long-running exec streams without filling memory.
   */
  captureLimit?: number;
}

/**
 * The program could not be started at all. A real runtime reports this instead of running
 * anything: the kubelet turns it into a container `StartError` (exit code 128) and exec into an
 * `InternalError` Status (see lib/sim/exec); `message` is runc's wording for the cause.
 */
export interface StartFailure {
  reason: "ExecutableNotFound" | "PermissionDenied";
  message: string;
}

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Present when argv[0] could not be executed; exitCode is then 127 or 126, as a shell would report. */
  startFailure?: StartFailure;
  /** The run was aborted through the signal (exitCode 137, as after SIGKILL). */
  killed?: boolean;
}

export const KILLED_EXIT_CODE = 137;
const DEFAULT_CAPTURE_LIMIT = 16 * 1024 * 1024;
const DEFAULT_ENV = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", HOME: "/root" };

class CollectingSink implements OutputSink {
  text = "";

  constructor(
    private readonly forward: ((text: string) => void) | undefined,
    private readonly limit: number,
  ) {}

  write(text: string): void {
    if (text === "") return;
    if (this.text.length < this.limit) this.text += text.slice(0, this.limit - this.text.length);
    this.forward?.(text);
  }
}

function inputFrom(stdin: ShellContext["stdin"]): InputSource {
  if (stdin === undefined) return NO_INPUT;
  if (typeof stdin === "string") return textInput(stdin);
  return streamedInput(stdin);
}

function hostnameOf(context: ShellContext): string {
  if (context.hostname !== undefined) return context.hostname;
  try {
    return context.fs.readFile("/etc/hostname").trim() || "localhost";
  } catch {
    return "localhost";
  }
}

/**
 * Runs argv as a container runtime would exec it: `["sh", "-c", script]` (or bash, /bin/sh…)
 * runs the script in the simulated shell, any other argv runs that one program directly.
 */
export async function runCommand(argv: readonly string[], context: ShellContext): Promise<CommandResult> {
  const signal = context.signal ?? new AbortController().signal;
  // The process's jobs (`&`) end with it, as they do when a container's main process exits.
  const processEnd = new AbortController();
  let termination = context.terminate;
  const limit = context.captureLimit ?? DEFAULT_CAPTURE_LIMIT;
  const stdout = new CollectingSink(context.onStdout, limit);
  const stderr = new CollectingSink(context.onStderr, limit);
  const hostname = hostnameOf(context);
  const utilities = new Map<string, Utility>(CORE_UTILITIES);
  const services: ShellServices = {
    fs: context.fs,
    sleep: (ms, abortSignal) => context.sleep(ms, abortSignal),
    now: context.now ?? Date.now,
    hostname,
    signal: AbortSignal.any([signal, processEnd.signal]),
    utilities,
    takeTermination: () => {
      const taken = termination;
      termination = undefined;
      return taken;
    },
  };
  const shell = shellProgram(services);
  for (const name of ["sh", "bash", "dash"]) utilities.set(name, shell);
  const env = { ...DEFAULT_ENV, HOSTNAME: hostname, ...context.env };
  const result = (exitCode: number, extra: Partial<CommandResult> = {}): CommandResult => ({ exitCode, stdout: stdout.text, stderr: stderr.text, ...extra });
  if (signal.aborted) return result(KILLED_EXIT_CODE, { killed: true });
  const name = argv[0] ?? "";
  try {
    const outcome = await runProgram(argv, { env, cwd: context.cwd ?? "/", streams: { stdin: inputFrom(context.stdin), stdout, stderr }, services });
    if ("status" in outcome) return result(outcome.status & 255);
    if ("missing" in outcome) {
      const message = name.includes("/") ? `exec: "${name}": stat ${name}: no such file or directory` : `exec: "${name}": executable file not found in $PATH`;
      return result(127, { startFailure: { reason: "ExecutableNotFound", message } });
    }
    return result(126, { startFailure: { reason: "PermissionDenied", message: `exec: "${name}": permission denied` } });
  } catch (error) {
    if (error instanceof ShellAborted) return result(KILLED_EXIT_CODE, { killed: true });
    if (error instanceof ExitSignal) return result(error.status & 255);
    throw error;
  } finally {
    processEnd.abort();
  }
}
