import { randomBytes } from "node:crypto";
import { type ShellContext, runCommand } from "../shell/run-command.ts";
import type { ExecOptions } from "./exec-request.ts";
import { startFailureStatus } from "./exec-status.ts";
import type { ExecIo, ExecOutcome } from "./handle-exec-upgrade.ts";

/** The container-side parts of a shell run; the stream parts come from the exec session. */
export type ContainerShell = Omit<ShellContext, "stdin" | "signal" | "onStdout" | "onStderr">;

/**
 * Runs an exec session's command in the simulated shell of a container. A command that cannot
 * be started at all (no such program) becomes the InternalError Status a real runtime produces,
 * rather than an exit code: that is how `kubectl exec` and client-node report it.
 */
export async function execInShell(options: ExecOptions, io: ExecIo, container: ContainerShell): Promise<ExecOutcome> {
  const result = await runCommand(options.command, {
    ...container,
    ...(options.stdin ? { stdin: io.stdin } : {}),
    signal: io.signal,
    onStdout: (text) => io.writeStdout(text),
    onStderr: (text) => io.writeStderr(text),
  });
  if (result.startFailure !== undefined) {
    const cause = options.command.length === 0 ? "exec: no command" : result.startFailure.message;
    return { error: startFailureStatus(randomBytes(32).toString("hex"), cause) };
  }
  return { exitCode: result.exitCode };
}
