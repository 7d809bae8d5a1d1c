import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../objects.ts";
import { startBareApiServer } from "../testing/bare-api-server.ts";
import type { ApiServer } from "./api-server.ts";
import { KubeProtobuf, PROTOBUF_MEDIA_TYPE } from "./protobuf/kube-protobuf.ts";

// The API server as stock Go clients talk to it: kubectl and every client-go clientset send
// built-in objects in protobuf and ask for protobuf first. The codec here is the one checked
// against Kubernetes' own serializer's bytes (protobuf/kube-protobuf.test.ts).

const GO_CLIENT_ACCEPT = `${PROTOBUF_MEDIA_TYPE}, */*`;
const codec = new KubeProtobuf();

let server: ApiServer;
let url: string;
let adminToken: string;

beforeAll(async () => {
  ({ server, url, adminToken } = await startBareApiServer());
});
afterAll(() => server.close());

let counter = 0;
const aPod = (): KubeObject => ({ apiVersion: "v1", kind: "Pod", metadata: { name: `proto-${++counter}` }, spec: { containers: [{ name: "agent", image: "busybox" }] } });

async function call(method: string, path: string, options: { body?: Uint8Array | string; contentType?: string; accept?: string } = {}) {
  const headers: Record<string, string> = { Authorization: `Bearer ${adminToken}`, Accept: options.accept ?? GO_CLIENT_ACCEPT };
  if (options.body !== undefined) headers["Content-Type"] = options.contentType ?? PROTOBUF_MEDIA_TYPE;
  const response = await fetch(`${url}${path}`, { method, headers, body: typeof options.body === "string" ? options.body : options.body && Buffer.from(options.body) });
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", bytes: new Uint8Array(await response.arrayBuffer()) };
}

const created = async (pod: KubeObject) => codec.decode((await call("POST", "/api/v1/namespaces/default/pods", { body: codec.encode(pod) })).bytes);

describe("the simulated API server in protobuf", () => {
  it("stores a pod sent in protobuf and answers in protobuf", async () => {
    const pod = aPod();
    const answer = await call("POST", "/api/v1/namespaces/default/pods", { body: codec.encode(pod) });
    const stored = codec.decode(answer.bytes);
    expect([answer.status, answer.contentType, stored.kind, stored.metadata.name, typeof stored.metadata.uid]).toEqual([201, PROTOBUF_MEDIA_TYPE, "Pod", pod.metadata.name, "string"]);
  });

  it("answers in JSON a client that prefers JSON", async () => {
    const pod = await created(aPod());
    const answer = await call("GET", `/api/v1/namespaces/default/pods/${pod.metadata.name}`, { accept: `application/json, ${PROTOBUF_MEDIA_TYPE}` });
    expect([answer.contentType, (JSON.parse(Buffer.from(answer.bytes).toString()) as KubeObject).metadata.uid]).toEqual(["application/json", pod.metadata.uid]);
  });

  it("lists in protobuf", async () => {
    const pod = await created(aPod());
    const list = codec.decode((await call("GET", "/api/v1/namespaces/default/pods")).bytes) as KubeObject & { items: KubeObject[] };
    expect([list.kind, list.items.some((item) => item.metadata.uid === pod.metadata.uid)]).toEqual(["PodList", true]);
  });

  it("answers a refusal with a Status in protobuf", async () => {
    const answer = await call("GET", "/api/v1/namespaces/default/pods/nobody-made-this");
    expect([answer.status, codec.decode(answer.bytes)]).toMatchObject([404, { kind: "Status", reason: "NotFound", code: 404 }]);
  });

  it("reads delete options sent in protobuf", async () => {
    const pod = await created(aPod());
    const options = { apiVersion: "v1", kind: "DeleteOptions", metadata: {}, preconditions: { uid: "not-its-uid" } };
    const answer = await call("DELETE", `/api/v1/namespaces/default/pods/${pod.metadata.name}`, { body: codec.encode(options) });
    expect([answer.status, codec.decode(answer.bytes).reason]).toEqual([409, "Conflict"]);
  });

  it("streams a watch as length-prefixed protobuf frames", async () => {
    const pod = await created(aPod());
    const controller = new AbortController();
    const response = await fetch(`${url}/api/v1/namespaces/default/pods?watch=true&fieldSelector=metadata.name%3D${pod.metadata.name}`, {
      headers: { Authorization: `Bearer ${adminToken}`, Accept: GO_CLIENT_ACCEPT },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let buffered = new Uint8Array();
    while (buffered.length < 4 || buffered.length < 4 + new DataView(buffered.buffer).getUint32(0)) {
      const { value } = await reader.read();
      buffered = new Uint8Array([...buffered, ...value!]);
    }
    controller.abort();
    const event = codec.decodeWatchEvent(buffered.subarray(4, 4 + new DataView(buffered.buffer).getUint32(0)));
    expect([response.headers.get("content-type"), event.type, event.object.metadata.uid]).toEqual([`${PROTOBUF_MEDIA_TYPE};stream=watch`, "ADDED", pod.metadata.uid]);
  });

  it("answers a custom resource in JSON, which has no protobuf form", async () => {
    const answer = await call("GET", "/apis/agents.x-k8s.io/v1beta1/namespaces/default/sandboxes");
    expect([answer.status, answer.contentType]).toEqual([200, "application/json"]);
  });

  it("refuses a custom resource sent in protobuf as unsupported", async () => {
    const answer = await call("POST", "/apis/agents.x-k8s.io/v1beta1/namespaces/default/sandboxes", { body: codec.encode(aPod()) });
    expect([answer.status, codec.decode(answer.bytes).reason]).toEqual([415, "UnsupportedMediaType"]);
  });

  it("refuses a damaged protobuf body, saying so", async () => {
    const bytes = codec.encode(aPod());
    const answer = await call("POST", "/api/v1/namespaces/default/pods", { body: bytes.subarray(0, bytes.length - 5) });
    expect([answer.status, codec.decode(answer.bytes).message]).toEqual([400, expect.stringContaining("couldn't decode the protobuf body")]);
  });

  it("refuses a body whose kind is not the resource's", async () => {
    const secret = { apiVersion: "v1", kind: "Secret", metadata: { name: "s" } };
    const answer = await call("POST", "/api/v1/namespaces/default/pods", { body: codec.encode(secret) });
    expect([answer.status, codec.decode(answer.bytes).message]).toEqual([400, "the kind in the data (Secret) does not match the expected kind (Pod)"]);
  });
});
