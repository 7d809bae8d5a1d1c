import { Writable } from "node:stream";
import { Exec, type KubeConfig, type V1Status } from "@kubernetes/client-node";

/** Runs a command in a pod through client-node's Exec (WebSocket), as the product does. */
export async function execIn(config: KubeConfig, namespace: string, pod: string, command: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        append(chunk.toString("utf8"));
        done();
      },
    });
  return new Promise((resolve, reject) => {
    new Exec(config)
      .exec(namespace, pod, "agent", command, sink((text) => (stdout += text)), sink((text) => (stderr += text)), null, false, (status: V1Status) => {
        const cause = status.details?.causes?.find((one) => one.reason === "ExitCode");
        resolve({ exitCode: status.status === "Success" ? 0 : Number(cause?.message ?? 1), stdout, stderr });
      })
      .catch(reject);
  });
}
