import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBareApiServer } from "../testing/bare-api-server.ts";
import type { ApiServer } from "./api-server.ts";
import { groupVersion, RESOURCES } from "./resources.ts";

// The OpenAPI documents as clients fetch them: the v3 index and its hashed documents, v2 in
// JSON or protobuf, each narrowed to what the cluster serves.

let server: ApiServer;
let url: string;
let adminToken: string;

beforeAll(async () => {
  ({ server, url, adminToken } = await startBareApiServer());
});
afterAll(() => server.close());

const get = (path: string, accept = "application/json") => fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${adminToken}`, Accept: accept }, redirect: "manual" });
const index = async () => ((await (await get("/openapi/v3")).json()) as { paths: Record<string, { serverRelativeURL: string }> }).paths;

describe("/openapi/v3", () => {
  it("lists a document for each group version served, Sandbox's among them", async () => {
    expect(Object.keys(await index())).toEqual(expect.arrayContaining(["api/v1", "apis/agents.x-k8s.io/v1beta1", "apis/storage.k8s.io/v1", "apis/apiextensions.k8s.io/v1"]));
  });

  it("has a document for exactly the group versions the cluster serves (else: npm run generate:openapi)", async () => {
    const served = new Set(RESOURCES.flatMap((definition) => definition.versions.map((version) => (definition.group ? `apis/${groupVersion(definition.group, version)}` : `api/${version}`))));
    expect(Object.keys(await index()).sort()).toEqual([...served].sort());
  });

  it("has no document for a group version the cluster does not serve", async () => {
    expect((await get("/openapi/v3/apis/batch/v1")).status).toBe(404);
  });

  it("describes only the resources served: pods, but not replication controllers", async () => {
    const document = (await (await get((await index())["api/v1"]!.serverRelativeURL)).json()) as { paths: Record<string, unknown> };
    expect([Object.hasOwn(document.paths, "/api/v1/namespaces/{namespace}/pods"), Object.hasOwn(document.paths, "/api/v1/namespaces/{namespace}/replicationcontrollers")]).toEqual([true, false]);
  });

  it("marks a document fetched by its hash as never changing", async () => {
    expect((await get((await index())["api/v1"]!.serverRelativeURL)).headers.get("cache-control")).toBe("public, immutable");
  });

  it("sends a client with an old hash to the current document", async () => {
    const answer = await get("/openapi/v3/api/v1?hash=0123");
    expect([answer.status, answer.headers.get("location")]).toEqual([301, (await index())["api/v1"]!.serverRelativeURL]);
  });
});

describe("/openapi/v2", () => {
  it("answers JSON with the Sandbox definition among its definitions", async () => {
    const document = (await (await get("/openapi/v2")).json()) as { definitions: Record<string, unknown> };
    expect(Object.keys(document.definitions)).toContain("io.x-k8s.agents.v1beta1.Sandbox");
  });

  it("answers protobuf to a client that asks for it, as client-go does", async () => {
    const answer = await get("/openapi/v2", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf");
    expect(answer.headers.get("content-type")).toBe("application/com.github.proto-openapi.spec.v2@v1.0+protobuf");
  });
});
