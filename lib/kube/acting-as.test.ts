import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CoreV1Api, Watch } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionFor } from "./acting-as.ts";
import { connectToEmbeddedCluster, type ClusterConnection } from "./cluster-connection.ts";
import { execInPod } from "./pod-exec.ts";

// What reaches the API server's socket, line by line, when Berth calls Kubernetes for a person:
// the headers the API server's impersonation filter reads (one line per group), or the
// person's own token — through client-node's API clients, its watches and exec's WebSocket.

let server: Server;
let berth: ClusterConnection;
const seen: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request);
    response.writeHead(200, { "Content-Type": "application/json" });
    if (request.url?.includes("watch=true")) {
      response.end();
      return;
    }
    response.end(JSON.stringify({ kind: "PodList", apiVersion: "v1", metadata: { resourceVersion: "1" }, items: [] }));
  });
  server.on("upgrade", (request, socket) => {
    seen.push(request);
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  berth = connectToEmbeddedCluster(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, "berth-token");
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** The request's header lines named `name`, in order, exactly as they came over the wire. */
function lines(request: IncomingMessage, name: string): string[] {
  const values: string[] = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    if (request.rawHeaders[index]!.toLowerCase() === name.toLowerCase()) values.push(request.rawHeaders[index + 1]!);
  }
  return values;
}

const alice = { username: "alice", groups: ["team-a-developers", "berth:everyone"] };

async function lastRequestAfter(call: () => Promise<unknown>): Promise<IncomingMessage> {
  const before = seen.length;
  await call().catch(() => {});
  expect(seen.length, "the call reached the server").toBeGreaterThan(before);
  return seen[seen.length - 1]!;
}

describe("a call made as a person", () => {
  it("impersonates the user on Berth's own token", async () => {
    const request = await lastRequestAfter(() => connectionFor(berth, { kind: "impersonate", person: alice }).kubeConfig.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: "team-a" }));
    expect([lines(request, "Impersonate-User"), lines(request, "Authorization")]).toEqual([["alice"], ["Bearer berth-token"]]);
  });

  it("sends one Impersonate-Group line per group", async () => {
    const request = await lastRequestAfter(() => connectionFor(berth, { kind: "impersonate", person: alice }).kubeConfig.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: "team-a" }));
    expect(lines(request, "Impersonate-Group")).toEqual(["team-a-developers", "berth:everyone"]);
  });

  it("sends the uid and extra attributes the person has", async () => {
    const person = { ...alice, uid: "1234", extra: { "scopes.example.com": ["read", "write"] } };
    const request = await lastRequestAfter(() => connectionFor(berth, { kind: "impersonate", person }).kubeConfig.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: "team-a" }));
    expect([lines(request, "Impersonate-Uid"), lines(request, "Impersonate-Extra-scopes.example.com")]).toEqual([["1234"], ["read", "write"]]);
  });

  it("impersonates in watches too", async () => {
    const config = connectionFor(berth, { kind: "impersonate", person: alice }).kubeConfig;
    const request = await lastRequestAfter(() => new Watch(config).watch("/api/v1/pods", {}, () => {}, () => {}));
    expect([lines(request, "Impersonate-User"), lines(request, "Impersonate-Group")]).toEqual([["alice"], ["team-a-developers", "berth:everyone"]]);
  });

  it("impersonates in exec's WebSocket", async () => {
    const connection = connectionFor(berth, { kind: "impersonate", person: alice });
    const request = await lastRequestAfter(() => execInPod(connection, { namespace: "team-a", pod: "box", container: "agent" }, ["true"], 5));
    expect([lines(request, "Impersonate-User"), lines(request, "Impersonate-Group")]).toEqual([["alice"], ["team-a-developers", "berth:everyone"]]);
  });

  it("carries the person's own token, and no impersonation, in token mode", async () => {
    const request = await lastRequestAfter(() => connectionFor(berth, { kind: "token", token: "alice-token" }).kubeConfig.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: "team-a" }));
    expect([lines(request, "Authorization"), lines(request, "Impersonate-User")]).toEqual([["Bearer alice-token"], []]);
  });

  it("leaves Berth's own calls as Berth's", async () => {
    const request = await lastRequestAfter(() => connectionFor(berth, { kind: "berth" }).kubeConfig.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: "team-a" }));
    expect([lines(request, "Authorization"), lines(request, "Impersonate-User")]).toEqual([["Bearer berth-token"], []]);
  });
});
