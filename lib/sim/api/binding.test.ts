import { statusFailure } from "../testing/status-failure.ts";
import { CoreV1Api } from "@kubernetes/client-node";
import { beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../clock.ts";
import { accessForTests } from "../testing/access-for-tests.ts";
import { pod } from "../controllers/gc-test-support.ts";
import { findCondition, record, refs } from "../k8s-objects.ts";
import { ObjectStore } from "../store/object-store.ts";
import { kubeConfigFor } from "../testing/kube-client.ts";
import { ApiServer } from "./api-server.ts";
import { bindingBody, bindPod, type BindingDeps } from "./binding.ts";
import { evictPod } from "./eviction.ts";

let clock: ManualClock;
let store: ObjectStore;
let deps: BindingDeps;

beforeEach(() => {
  clock = new ManualClock();
  store = new ObjectStore(clock);
  deps = { store, clock };
});

const bind = (name: string, node: string) => bindPod(deps, "default", name, bindingBody("default", name, node));
const current = (name: string) => store.peek(refs.pods, "default", name)!;

describe("the Binding subresource", () => {
  it("sets the node and PodScheduled=True, replacing an Unschedulable condition", async () => {
    const created = pod(store, "box");
    store.update(refs.pods, {
      ...created,
      status: { ...record(created.status), conditions: [{ type: "PodScheduled", status: "False", lastProbeTime: null, lastTransitionTime: "2026-01-01T00:00:00Z", reason: "Unschedulable", message: "0/3 nodes are available" }] },
    });
    await clock.advance(5_000);

    expect(bind("box", "worker-2")).toEqual({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 });
    expect(record(current("box").spec).nodeName).toBe("worker-2");
    expect(findCondition(current("box"), "PodScheduled")).toEqual({ type: "PodScheduled", status: "True", lastProbeTime: null, lastTransitionTime: "2026-01-01T00:00:05Z" });
  });

  it("leaves the pod's generation as it was, as the real binding does", () => {
    pod(store, "box");
    bind("box", "worker-2");
    expect(current("box").metadata.generation).toBe(1);
  });

  it("refuses to bind a pod twice with 409", () => {
    pod(store, "box");
    bind("box", "worker-1");

    expect(statusFailure(() => bind("box", "worker-2")).status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'Operation cannot be fulfilled on pods/binding "box": pod box is already assigned to node "worker-1"',
      reason: "Conflict",
      details: { name: "box", kind: "pods/binding" },
      code: 409,
    });
    expect(record(current("box").spec).nodeName).toBe("worker-1");
  });

  it("refuses to bind a pod that is being deleted", () => {
    const created = pod(store, "box");
    store.update(refs.pods, { ...created, metadata: { ...created.metadata, finalizers: ["example.com/hold"] } });
    store.delete(refs.pods, "default", "box");

    expect(statusFailure(() => bind("box", "worker-1")).status).toMatchObject({
      code: 409,
      reason: "Conflict",
      message: 'Operation cannot be fulfilled on pods/binding "box": pod box is being deleted, cannot be assigned to a host',
    });
  });

  it("copies the binding's annotations onto the pod", () => {
    pod(store, "box");
    bindPod(deps, "default", "box", JSON.stringify({ metadata: { name: "box", annotations: { "example.com/picked": "yes" } }, target: { kind: "Node", name: "worker-1" } }));
    expect(current("box").metadata.annotations).toEqual({ "example.com/picked": "yes" });
  });

  it("rejects a misaddressed or incomplete Binding, and an unknown pod", () => {
    pod(store, "box");
    expect(statusFailure(() => bindPod(deps, "default", "box", bindingBody("default", "other", "worker-1"))).status).toMatchObject({
      code: 400,
      message: "name in URL does not match name in Binding object",
    });
    expect(statusFailure(() => bindPod(deps, "default", "box", JSON.stringify({ metadata: { name: "box" }, target: { kind: "Node" } }))).status).toMatchObject({
      code: 500,
      message: "target.name: Required value",
    });
    expect(statusFailure(() => bind("ghost", "worker-1")).status).toMatchObject({ code: 404, message: 'pods "ghost" not found' });
  });

  it("binds through client-node's createNamespacedPodBinding", async () => {
    store.create(refs.namespaces, { apiVersion: "v1", kind: "Namespace", metadata: { name: "default" } });
    pod(store, "box");
    const { access, adminToken } = accessForTests(store, clock);
    const server = new ApiServer({
      store,
      access,
      now: () => clock.now(),
      pods: {
        evict: (namespace, name, body, dryRun) => evictPod(deps, namespace, name, body, dryRun),
        bind: (namespace, name, body) => bindPod(deps, namespace, name, body),
        log: () => "",
        exec: (_request, socket) => socket.destroy(),
      },
    });
    try {
      const core = kubeConfigFor(await server.listen(), adminToken).makeApiClient(CoreV1Api);
      await core.createNamespacedPodBinding({
        name: "box",
        namespace: "default",
        body: { apiVersion: "v1", kind: "Binding", metadata: { name: "box" }, target: { apiVersion: "v1", kind: "Node", name: "worker-3" } },
      });
      expect(record(current("box").spec).nodeName).toBe("worker-3");
    } finally {
      await server.close();
    }
  });
});
