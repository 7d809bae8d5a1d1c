import { ApiException, CoordinationV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, Watch, type V1Pod } from "@kubernetes/client-node";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBareApiServer } from "../testing/bare-api-server.ts";
import { kubeConfigFor } from "../testing/kube-client.ts";
import type { ApiServer } from "./api-server.ts";

// The API machinery alone, through @kubernetes/client-node: no controllers run here, so what
// is stored is exactly what was written.

let server: ApiServer;
let url: string;
let adminToken: string;
/** fetch as the cluster's admin, as curl with the kubeconfig's token would. */
const asAdmin = (input: string, init: RequestInit = {}) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${adminToken}` } });
let core: CoreV1Api;
let custom: CustomObjectsApi;

beforeAll(async () => {
  ({ server, url, adminToken } = await startBareApiServer());
  const config = kubeConfigFor(url, adminToken);
  core = config.makeApiClient(CoreV1Api);
  custom = config.makeApiClient(CustomObjectsApi);
});
afterAll(() => server.close());

let counter = 0;
function aPod(labels: Record<string, string> = {}): V1Pod {
  return { metadata: { name: `pod-${++counter}`, labels }, spec: { containers: [{ name: "agent", image: "busybox" }] } };
}

interface FailureStatus {
  code: number;
  reason: string;
  message: string;
  details?: { causes?: { reason: string; field: string }[] };
}

async function statusOf(promise: Promise<unknown>): Promise<FailureStatus> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiException) {
      const body = JSON.parse(String(error.body)) as Omit<FailureStatus, "code">;
      return { code: error.code, reason: body.reason, message: body.message, details: body.details };
    }
    throw error;
  }
  throw new Error("expected the request to fail");
}

describe("the simulated API server", () => {
  it("creates and reads back a pod with server-set metadata", async () => {
    const created = await core.createNamespacedPod({ namespace: "default", body: aPod() });
    const read = await core.readNamespacedPod({ namespace: "default", name: created.metadata!.name! });
    expect(read.metadata).toMatchObject({ uid: created.metadata!.uid, resourceVersion: created.metadata!.resourceVersion, namespace: "default" });
  });

  it("gives a pod the API server's defaults and a Pending status", async () => {
    const created = await core.createNamespacedPod({ namespace: "default", body: aPod() });
    expect([created.spec!.terminationGracePeriodSeconds, created.status!.phase]).toEqual([30, "Pending"]);
  });

  it("answers a missing object with 404 NotFound", async () => {
    expect(await statusOf(core.readNamespacedPod({ namespace: "default", name: "nope" }))).toEqual({ code: 404, reason: "NotFound", message: 'pods "nope" not found', details: { kind: "pods", name: "nope" } });
  });

  it("answers a duplicate name with 409 AlreadyExists", async () => {
    const pod = aPod();
    await core.createNamespacedPod({ namespace: "default", body: pod });
    expect((await statusOf(core.createNamespacedPod({ namespace: "default", body: pod }))).reason).toBe("AlreadyExists");
  });

  it("answers a stale update with 409 Conflict", async () => {
    const created = await core.createNamespacedPod({ namespace: "default", body: aPod() });
    await core.patchNamespacedPod({ namespace: "default", name: created.metadata!.name!, body: { metadata: { labels: { a: "1" } } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    const stale = { ...created, metadata: { ...created.metadata, labels: { b: "2" } } };
    expect((await statusOf(core.replaceNamespacedPod({ namespace: "default", name: created.metadata!.name!, body: stale }))).reason).toBe("Conflict");
  });

  it("answers an invalid object with 422 Invalid and the field in its causes", async () => {
    const error = await statusOf(core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "Bad_Name" }, spec: { containers: [{ name: "a", image: "b" }] } } }));
    expect(error).toMatchObject({ code: 422, reason: "Invalid", details: { causes: [{ reason: "FieldValueInvalid", field: "metadata.name" }] } });
  });

  it("answers a body whose kind is not the resource's with 400 BadRequest", async () => {
    const response = await asAdmin(`${url}/api/v1/namespaces/default/pods`, {
      method: "POST",
      body: JSON.stringify({ apiVersion: "v1", kind: "Service", metadata: { name: "mismatch" } }),
      headers: { "Content-Type": "application/json" },
    });
    const body = (await response.json()) as { reason: string; message: string };
    expect([response.status, body.reason, body.message]).toEqual([400, "BadRequest", "the kind in the data (Service) does not match the expected kind (Pod)"]);
  });

  it("answers malformed JSON with 400 and keeps serving", async () => {
    const response = await asAdmin(`${url}/api/v1/namespaces/default/pods`, { method: "POST", body: "{not json", headers: { "Content-Type": "application/json" } });
    const health = await asAdmin(`${url}/healthz`);
    expect([response.status, health.status]).toEqual([400, 200]);
  });

  it("answers an unknown resource with 404", async () => {
    const response = await asAdmin(`${url}/apis/example.com/v1/widgets`);
    expect(response.status).toBe(404);
  });

  it("lists by label selector", async () => {
    const team = `team-${++counter}`;
    await core.createNamespacedPod({ namespace: "default", body: aPod({ team }) });
    await core.createNamespacedPod({ namespace: "default", body: aPod({ team: "other" }) });
    const listed = await core.listNamespacedPod({ namespace: "default", labelSelector: `team=${team}` });
    expect(listed.items).toHaveLength(1);
  });

  it("answers a malformed label selector with 400", async () => {
    expect((await statusOf(core.listNamespacedPod({ namespace: "default", labelSelector: "a in (" }))).code).toBe(400);
  });

  it("pages a list with limit and continue", async () => {
    const team = `paged-${++counter}`;
    for (let i = 0; i < 5; i++) await core.createNamespacedPod({ namespace: "default", body: aPod({ team }) });
    const first = await core.listNamespacedPod({ namespace: "default", labelSelector: `team=${team}`, limit: 2 });
    const rest = await core.listNamespacedPod({ namespace: "default", labelSelector: `team=${team}`, limit: 10, _continue: first.metadata!._continue });
    expect([first.items.length, rest.items.length]).toEqual([2, 3]);
  });

  it("applies a strategic merge patch to a pod's labels", async () => {
    const created = await core.createNamespacedPod({ namespace: "default", body: aPod({ a: "1" }) });
    const patched = await core.patchNamespacedPod(
      { namespace: "default", name: created.metadata!.name!, body: { metadata: { labels: { b: "2" } } } },
      setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch),
    );
    expect(patched.metadata!.labels).toEqual({ a: "1", b: "2" });
  });

  it("applies a JSON patch sent over HTTP", async () => {
    const created = await core.createNamespacedPod({ namespace: "default", body: aPod({ a: "1" }) });
    const patched = await core.patchNamespacedPod(
      { namespace: "default", name: created.metadata!.name!, body: [{ op: "replace", path: "/metadata/labels/a", value: "2" }, { op: "add", path: "/metadata/labels/c", value: "3" }] },
      setHeaderOptions("Content-Type", PatchStrategy.JsonPatch),
    );
    expect(patched.metadata!.labels).toEqual({ a: "2", c: "3" });
  });

  it("answers a JSON patch whose test fails with 422 and leaves the object as it was", async () => {
    const created = await core.createNamespacedPod({ namespace: "default", body: aPod({ a: "1" }) });
    const name = created.metadata!.name!;
    const error = await statusOf(core.patchNamespacedPod(
      { namespace: "default", name, body: [{ op: "test", path: "/metadata/labels/a", value: "0" }, { op: "replace", path: "/metadata/labels/a", value: "2" }] },
      setHeaderOptions("Content-Type", PatchStrategy.JsonPatch),
    ));
    const after = await core.readNamespacedPod({ namespace: "default", name });
    expect([error.code, after.metadata!.labels]).toEqual([422, { a: "1" }]);
  });

  it("serves leases, renewed by update with optimistic concurrency", async () => {
    const coordination = kubeConfigFor(url, adminToken).makeApiClient(CoordinationV1Api);
    const lease = await coordination.createNamespacedLease({ namespace: "default", body: { metadata: { name: "berth-leader" }, spec: { holderIdentity: "a", leaseDurationSeconds: 15 } } });
    const renewed = await coordination.replaceNamespacedLease({ namespace: "default", name: "berth-leader", body: { ...lease, spec: { ...lease.spec, holderIdentity: "b" } } });
    const stale = await statusOf(coordination.replaceNamespacedLease({ namespace: "default", name: "berth-leader", body: { ...lease, spec: { ...lease.spec, holderIdentity: "c" } } }));
    expect([renewed.spec?.holderIdentity, stale.code, stale.reason]).toEqual(["b", 409, "Conflict"]);
  });

  it("streams a watch from a resourceVersion", async () => {
    const created = await core.createNamespacedPod({ namespace: "default", body: aPod() });
    const name = created.metadata!.name!;
    const seen: string[] = [];
    const done = new Promise<void>((resolve) => {
      void new Watch(kubeConfigFor(url, adminToken)).watch(
        "/api/v1/namespaces/default/pods",
        { resourceVersion: created.metadata!.resourceVersion, fieldSelector: `metadata.name=${name}` },
        (type) => {
          seen.push(type);
          if (type === "DELETED") resolve();
        },
        () => {},
      );
    });
    await core.patchNamespacedPod({ namespace: "default", name, body: { metadata: { labels: { x: "y" } } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    await core.deleteNamespacedPod({ namespace: "default", name });
    await done;
    expect(seen).toEqual(["MODIFIED", "DELETED"]);
  });

  it("serves Sandbox in v1beta1 and v1alpha1, converting operatingMode and replicas", async () => {
    await custom.createNamespacedCustomObject({
      group: "agents.x-k8s.io", version: "v1beta1", namespace: "default", plural: "sandboxes",
      body: { apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", metadata: { name: "box" }, spec: { operatingMode: "Suspended", podTemplate: { spec: { containers: [{ name: "agent", image: "busybox" }] } } } },
    });
    const old = (await custom.getNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1alpha1", namespace: "default", plural: "sandboxes", name: "box" })) as { spec: { replicas: number } };
    expect(old.spec.replicas).toBe(0);
  });

  it("converts Sandbox status as agent-sandbox's webhook does: v1alpha1 replicas from the mode, a v1alpha1 write kept in an annotation", async () => {
    const alpha = { group: "agents.x-k8s.io", version: "v1alpha1", namespace: "default", plural: "sandboxes" };
    const beta = { ...alpha, version: "v1beta1" };
    const podTemplate = { spec: { containers: [{ name: "agent", image: "busybox" }] } };
    await custom.createNamespacedCustomObject({ ...beta, body: { apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", metadata: { name: "beta-box" }, spec: { podTemplate } } });
    const fromBeta = (await custom.getNamespacedCustomObject({ ...alpha, name: "beta-box" })) as { spec: { replicas?: number }; status?: { replicas?: number } };
    // 1 for a Running Sandbox whatever its pod is doing.
    expect([fromBeta.spec.replicas, fromBeta.status?.replicas]).toEqual([1, 1]);

    await custom.createNamespacedCustomObject({ ...alpha, body: { apiVersion: "agents.x-k8s.io/v1alpha1", kind: "Sandbox", metadata: { name: "alpha-box" }, spec: { podTemplate } } });
    const asBeta = (await custom.getNamespacedCustomObject({ ...beta, name: "alpha-box" })) as { metadata: { annotations?: Record<string, string> }; spec: { operatingMode?: string } };
    expect(asBeta.spec.operatingMode).toBe("Running");
    expect(JSON.parse(asBeta.metadata.annotations?.["api.agents.x-k8s.io/v1alpha1-sandbox-state"] ?? "{}")).toMatchObject({ spec: { replicas: 1 } });
    const asAlpha = (await custom.getNamespacedCustomObject({ ...alpha, name: "alpha-box" })) as { metadata: { annotations?: Record<string, string> }; spec: { replicas?: number }; status?: { replicas?: number } };
    // The annotation stays out of v1alpha1, and status.replicas is what the v1alpha1 write had: none.
    expect([asAlpha.metadata.annotations, asAlpha.spec.replicas, asAlpha.status?.replicas]).toEqual([undefined, 1, undefined]);
  });

  it("serves Services, giving a ClusterIP Service an address and a headless one none", async () => {
    const web = await core.createNamespacedService({ namespace: "default", body: { metadata: { name: "web" }, spec: { selector: { app: "web" }, ports: [{ port: 80 }] } } });
    const headless = await core.createNamespacedService({ namespace: "default", body: { metadata: { name: "peers" }, spec: { clusterIP: "None", selector: { app: "web" } } } });
    expect([web.spec!.type, web.spec!.clusterIP, web.spec!.ports![0]!.protocol, web.spec!.ports![0]!.targetPort]).toEqual(["ClusterIP", "10.96.0.2", "TCP", 80]);
    expect([headless.spec!.clusterIPs, headless.spec!.sessionAffinity]).toEqual([["None"], "None"]);
    await expect(core.createNamespacedService({ namespace: "default", body: { metadata: { name: "portless" }, spec: { selector: { app: "web" } } } })).rejects.toMatchObject({ code: 422 });
  });

  it("refuses a strategic merge patch of a custom resource with 415", async () => {
    const response = await asAdmin(`${url}/apis/agents.x-k8s.io/v1beta1/namespaces/default/sandboxes/box`, {
      method: "PATCH", body: "{}", headers: { "Content-Type": "application/strategic-merge-patch+json" },
    });
    expect(response.status).toBe(415);
  });

  it("serves discovery for the core group and agents.x-k8s.io", async () => {
    const core = (await (await asAdmin(`${url}/api/v1`)).json()) as { resources: { name: string }[] };
    const groups = (await (await asAdmin(`${url}/apis`)).json()) as { groups: { name: string }[] };
    expect([core.resources.some((r) => r.name === "pods/eviction"), groups.groups.some((g) => g.name === "agents.x-k8s.io")]).toEqual([true, true]);
  });

  it("names an object from generateName", async () => {
    const created = await core.createNamespacedPod({ namespace: "default", body: { metadata: { generateName: "worker-" }, spec: { containers: [{ name: "a", image: "b" }] } } });
    expect(created.metadata!.name).toMatch(/^worker-[a-z0-9]{5}$/);
  });

  it("stores nothing on dryRun=All", async () => {
    const pod = aPod();
    await core.createNamespacedPod({ namespace: "default", body: pod, dryRun: "All" });
    expect((await statusOf(core.readNamespacedPod({ namespace: "default", name: pod.metadata!.name! }))).code).toBe(404);
  });

  it("refuses a delete whose uid precondition does not match with 409", async () => {
    const created = await core.createNamespacedPod({ namespace: "default", body: aPod() });
    const refused = await statusOf(core.deleteNamespacedPod({ namespace: "default", name: created.metadata!.name!, body: { preconditions: { uid: "not-the-uid" } } }));
    expect(refused.code).toBe(409);
  });

  it("keeps an object with finalizers, marked with a deletionTimestamp, until they are removed", async () => {
    const pod = aPod();
    pod.metadata!.finalizers = ["example.com/hold"];
    await core.createNamespacedPod({ namespace: "default", body: pod });
    await core.deleteNamespacedPod({ namespace: "default", name: pod.metadata!.name! });
    const held = await core.readNamespacedPod({ namespace: "default", name: pod.metadata!.name! });
    await core.patchNamespacedPod({ namespace: "default", name: pod.metadata!.name!, body: { metadata: { finalizers: null } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    const after = await statusOf(core.readNamespacedPod({ namespace: "default", name: pod.metadata!.name! }));
    expect([Boolean(held.metadata!.deletionTimestamp), after.code]).toEqual([true, 404]);
  });

  it("marks a foreground deletion with the foregroundDeletion finalizer", async () => {
    const pod = aPod();
    await core.createNamespacedPod({ namespace: "default", body: pod });
    await core.deleteNamespacedPod({ namespace: "default", name: pod.metadata!.name!, propagationPolicy: "Foreground" });
    const held = await core.readNamespacedPod({ namespace: "default", name: pod.metadata!.name! });
    expect(held.metadata!.finalizers).toContain("foregroundDeletion");
  });

  it("answers a field selector the kind does not support with 400", async () => {
    expect((await statusOf(core.listNamespacedPersistentVolumeClaim({ namespace: "default", fieldSelector: "spec.storageClassName=x" }))).code).toBe(400);
  });

  it("sends BOOKMARK events on a watch that asked for them", async () => {
    const list = await core.listNamespacedPod({ namespace: "default" });
    const types: string[] = [];
    const watching = await new Watch(kubeConfigFor(url, adminToken)).watch(
      "/api/v1/namespaces/default/pods",
      { resourceVersion: list.metadata!.resourceVersion, allowWatchBookmarks: true },
      (type) => types.push(type),
      () => {},
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    watching.abort();
    expect(types).toContain("BOOKMARK");
  });

  it("survives a client that resets an upgrade connection", async () => {
    const { port } = new URL(url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write("GET /nothing HTTP/1.1\r\nHost: sim\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n");
        socket.resetAndDestroy();
        resolve();
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await asAdmin(`${url}/healthz`)).status).toBe(200);
  });

  it("answers an owner reference without apiVersion with 422 instead of storing it", async () => {
    const pod = aPod();
    pod.metadata!.ownerReferences = [{ kind: "Sandbox", name: "x", uid: "u" } as never];
    expect((await statusOf(core.createNamespacedPod({ namespace: "default", body: pod }))).code).toBe(422);
  });

  it("answers labels that are not strings with 422", async () => {
    const pod = aPod();
    pod.metadata!.labels = { team: 5 } as never;
    expect((await statusOf(core.createNamespacedPod({ namespace: "default", body: pod }))).code).toBe(422);
  });

  it("deletes a non-pod object at once even when a grace period is asked for", async () => {
    await core.createNamespacedEvent({ namespace: "default", body: { metadata: { name: "graceless" }, involvedObject: { kind: "Pod", name: "p" } } });
    await core.deleteNamespacedEvent({ namespace: "default", name: "graceless", gracePeriodSeconds: 30 });
    expect((await statusOf(core.readNamespacedEvent({ namespace: "default", name: "graceless" }))).code).toBe(404);
  });

  it("reports the first page's resourceVersion on every page of a list", async () => {
    const team = `rv-${++counter}`;
    for (let i = 0; i < 3; i++) await core.createNamespacedPod({ namespace: "default", body: aPod({ team }) });
    const first = await core.listNamespacedPod({ namespace: "default", labelSelector: `team=${team}`, limit: 1 });
    await core.createNamespacedPod({ namespace: "default", body: aPod() });
    const second = await core.listNamespacedPod({ namespace: "default", labelSelector: `team=${team}`, limit: 1, _continue: first.metadata!._continue });
    expect(second.metadata!.resourceVersion).toBe(first.metadata!.resourceVersion);
  });
});
