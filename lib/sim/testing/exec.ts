import { Writable } from "node:stream";
import { Exec, type KubeConfig, type V1Status } from "@kubernetes/client-node";

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** An exec session under way: what it has printed so far, and how it ends. */
export interface RunningExec {
  stdoutSoFar(): string;
  ended: Promise<ExecResult>;
}

/** Starts a command in a pod through client-node's Exec (WebSocket), as the product does, without waiting for it. */
export function startExec(config: KubeConfig, namespace: string, pod: string, command: string[]): RunningExec {
  let stdout = "";
  let stderr = "";
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        append(chunk.toString("utf8"));
        done();
      },
    });
  const ended = new Promise<ExecResult>((resolve, reject) => {
    new Exec(config)
      .exec(namespace, pod, "agent", command, sink((text) => (stdout += text)), sink((text) => (stderr += text)), null, false, (status: V1Status) => {
        const cause = status.details?.causes?.find((one) => one.reason === "ExitCode");
        resolve({ exitCode: status.status === "Success" ? 0 : Number(cause?.message ?? 1), stdout, stderr });
      })
      .catch(reject);
  });
  return { stdoutSoFar: () => stdout, ended };
}

/** Runs a command in a pod through client-node's Exec (WebSocket), as the product does. */
export function execIn(config: KubeConfig, namespace: string, pod: string, command: string[]): Promise<ExecResult> {
  return startExec(config, namespace, pod, command).ended;
}
