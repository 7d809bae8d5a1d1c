import { createServer, type Server } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { startSimulatedCluster } from "../sim/index.ts";
import { connectToEmbeddedCluster, discoverSandboxApi } from "./cluster-connection.ts";

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

/** A port that accepts connections and never answers, as a hung API server would. */
async function silentServer(): Promise<string> {
  const server = createServer(() => {});
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

describe("discoverSandboxApi", () => {
  it("finds v1beta1 on a cluster that serves agent-sandbox", async () => {
    const sim = await startSimulatedCluster();
    try {
      expect(await discoverSandboxApi(connectToEmbeddedCluster(sim.serverUrl, sim.adminToken))).toEqual({ ok: true, version: "v1beta1" });
    } finally {
      await sim.stop();
    }
  });

  it("gives up on an API server that does not answer, saying so", async () => {
    const discovery = await discoverSandboxApi(connectToEmbeddedCluster(await silentServer(), "unused"), 200);
    expect(discovery).toMatchObject({ ok: false, reason: "unreachable", message: expect.stringContaining("no answer within 0.2 s") });
  });
});
