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
  async function discoverOn(withdrawnVersions: string[] = []) {
    const sim = await startSimulatedCluster({ withdrawnVersions });
    try {
      return await discoverSandboxApi(connectToEmbeddedCluster(sim.serverUrl, sim.adminToken));
    } finally {
      await sim.stop();
    }
  }

  it("finds v1beta1, extensions included, on a cluster that serves agent-sandbox", async () => {
    expect(await discoverOn()).toEqual({ ok: true, version: "v1beta1", install: { sandboxApiVersion: "v1beta1", extensionsApiVersion: "v1beta1", findings: [] } });
  });

  it("finds v1beta1 on a cluster that serves v1beta1 alone, as agent-sandbox 1.0 does", async () => {
    expect(await discoverOn(["agents.x-k8s.io/v1alpha1", "extensions.agents.x-k8s.io/v1alpha1"])).toMatchObject({ ok: true, version: "v1beta1", install: { findings: [] } });
  });

  it("finds a half-migrated install when the extensions are served in v1alpha1 alone", async () => {
    const discovery = await discoverOn(["extensions.agents.x-k8s.io/v1beta1"]);
    expect(discovery.ok && discovery.install.findings.map((finding) => finding.code)).toEqual(["half-migrated"]);
  });

  it("says agent-sandbox is not installed when no Sandbox version is served", async () => {
    expect(await discoverOn(["agents.x-k8s.io/v1alpha1", "agents.x-k8s.io/v1beta1"])).toMatchObject({ ok: false, reason: "not-installed" });
  });

  it("gives up on an API server that does not answer, saying so", async () => {
    const discovery = await discoverSandboxApi(connectToEmbeddedCluster(await silentServer(), "unused"), 200);
    expect(discovery).toMatchObject({ ok: false, reason: "unreachable", message: expect.stringContaining("no answer within 0.2 s") });
  });
});
