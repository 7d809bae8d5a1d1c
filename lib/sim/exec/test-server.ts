import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { KubeConfig } from "@kubernetes/client-node";
import { type ExecRunner, handleExecUpgrade } from "./handle-exec-upgrade.ts";

/** A plain HTTP server on a free local port whose upgrades go to the exec handler, and a kubeconfig for it. */
export async function startExecServer(run: ExecRunner) {
  const sessions: Promise<void>[] = [];
  // Upgraded sockets leave the HTTP server's books: close() must end them itself.
  const sockets = new Set<Duplex>();
  const server: Server = createServer((_request, response) => {
    response.statusCode = 404;
    response.end();
  });
  server.on("upgrade", (request, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    sessions.push(handleExecUpgrade(request, socket, head, run));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: "sim", server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: "u" }],
    contexts: [{ name: "c", cluster: "sim", user: "u" }],
    currentContext: "c",
  });
  return {
    kubeConfig,
    url: (path: string) => `ws://127.0.0.1:${port}${path}`,
    port,
    /** Waits for every session so far to finish. */
    settled: () => Promise.all(sessions),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
