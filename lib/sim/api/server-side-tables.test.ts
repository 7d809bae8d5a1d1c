import { CoreV1Api, type V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBareApiServer } from "../testing/bare-api-server.ts";
import { kubeConfigFor } from "../testing/kube-client.ts";
import type { ApiServer } from "./api-server.ts";

// Server-side tables as `kubectl get` asks for them, over HTTP: the Accept header kubectl sends,
// the rows of a list and of one object, what each row carries of its object, and a watch whose
// first event alone carries the column definitions.

const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

let server: ApiServer;
let url: string;
let adminToken: string;
let core: CoreV1Api;

beforeAll(async () => {
  ({ server, url, adminToken } = await startBareApiServer());
  core = kubeConfigFor(url, adminToken).makeApiClient(CoreV1Api);
});
afterAll(() => server.close());

let counter = 0;
async function aPod(): Promise<V1Pod> {
  return core.createNamespacedPod({ namespace: "default", body: { metadata: { name: `table-pod-${++counter}` }, spec: { containers: [{ name: "agent", image: "busybox" }] } } });
}

interface Table {
  kind: string;
  columnDefinitions?: { name: string; priority: number }[];
  rows: { cells: unknown[]; object?: { kind: string; metadata?: unknown; spec?: unknown } }[];
}

const getTable = async (path: string, accept = TABLE) => {
  const response = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${adminToken}`, Accept: accept } });
  return { status: response.status, body: (await response.json()) as Table };
};

describe("server-side tables", () => {
  it("answers a list as a Table with the pod columns, the wide ones at priority 1", async () => {
    await aPod();
    const { body } = await getTable("/api/v1/namespaces/default/pods");
    expect(body.columnDefinitions?.map((column) => `${column.name}:${column.priority}`)).toEqual(["Name:0", "Ready:0", "Status:0", "Restarts:0", "Age:0", "IP:1", "Node:1", "Nominated Node:1", "Readiness Gates:1"]);
  });

  it("prints a pod nobody has scheduled as Pending, 0/1 ready, on no node", async () => {
    const pod = await aPod();
    const { body } = await getTable(`/api/v1/namespaces/default/pods/${pod.metadata!.name}`);
    expect(body.rows[0]?.cells).toEqual([pod.metadata!.name, "0/1", "Pending", "0", expect.stringMatching(/^\d+s$/), "<none>", "<none>", "<none>", "<none>"]);
  });

  it("carries each row's object as metadata only, unless the client asks for the whole object", async () => {
    const pod = await aPod();
    const [metadata, whole] = await Promise.all(["", "?includeObject=Object"].map(async (query) => (await getTable(`/api/v1/namespaces/default/pods/${pod.metadata!.name}${query}`)).body.rows[0]?.object));
    expect([metadata?.kind, metadata?.spec, whole?.kind]).toEqual(["PartialObjectMetadata", undefined, "Pod"]);
  });

  it("refuses an includeObject it does not know with 400", async () => {
    expect((await getTable("/api/v1/namespaces/default/pods?includeObject=Everything")).status).toBe(400);
  });

  it("answers a client that does not ask for a table with the plain list", async () => {
    expect((await getTable("/api/v1/namespaces/default/pods", "application/json")).body.kind).toBe("PodList");
  });

  it("prints a kind without a printer as the API server's default, Name and Created At", async () => {
    const { body } = await getTable("/apis/rbac.authorization.k8s.io/v1/clusterroles");
    expect(body.columnDefinitions?.map((column) => column.name)).toEqual(["Name", "Created At"]);
  });

  it("sends the column definitions with the first event of a watch only", async () => {
    await aPod();
    await aPod();
    const controller = new AbortController();
    const response = await fetch(`${url}/api/v1/namespaces/default/pods?watch=true`, { headers: { Authorization: `Bearer ${adminToken}`, Accept: TABLE }, signal: controller.signal });
    const reader = response.body!.getReader();
    let text = "";
    while (text.split("\n").filter(Boolean).length < 2) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const events = text.split("\n").filter(Boolean).slice(0, 2).map((line) => JSON.parse(line) as { object: Table });
    expect(events.map((event) => [event.object.kind, event.object.columnDefinitions !== undefined])).toEqual([["Table", true], ["Table", false]]);
  });
});
