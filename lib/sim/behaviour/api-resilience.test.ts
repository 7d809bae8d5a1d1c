import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ApiException, Watch } from "@kubernetes/client-node";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../testing/eventually.ts";
import { execIn } from "../testing/exec.ts";
import { aSandbox, startSimFixture, type SimFixture } from "../testing/sim-fixture.ts";

// k8s-behaviour.md, "Events" (resourceVersion, 410 Gone, dropped watches), and what the fault
// API does to clients: the things the driver's watches must survive.

let sim: SimFixture | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await sim?.cluster.stop();
  sim = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function watchPods(fixture: SimFixture, resourceVersion: string | undefined) {
  const events: { type: string; code?: number }[] = [];
  let ended: unknown = "open";
  const started = new Watch(fixture.config).watch(
    "/api/v1/namespaces/default/pods",
    resourceVersion ? { resourceVersion } : {},
    (type, object: { code?: number }) => events.push({ type, code: object.code }),
    (error) => {
      ended = error ?? null;
    },
  );
  return { events, ended: () => ended, started };
}

const aPod = (name: string) => ({ metadata: { name }, spec: { nodeName: "worker-9", containers: [{ name: "c", image: "busybox" }] } });

describe("watches", () => {
  it("answer a resourceVersion older than the history with an ERROR event carrying 410 Expired", async () => {
    sim = await startSimFixture();
    const created = await sim.core.createNamespacedPod({ namespace: "default", body: aPod("old") });
    await sim.fault("compact");
    const watch = watchPods(sim, String(Number(created.metadata!.resourceVersion) - 1));
    await watch.started;
    await eventually(() => {
      if (watch.events.length === 0) throw new Error("nothing yet");
    });
    expect(watch.events[0]).toEqual({ type: "ERROR", code: 410 });
  });

  it("are ended by a dropped connection, which the client sees", async () => {
    sim = await startSimFixture();
    const list = await sim.core.listNamespacedPod({ namespace: "default" });
    const watch = watchPods(sim, list.metadata!.resourceVersion);
    await watch.started;
    await eventually(async () => {
      const { dropped } = (await sim!.fault("watches/drop")) as { dropped: number };
      if (dropped === 0) throw new Error("watch not open yet");
    });
    await eventually(() => {
      if (watch.ended() === "open") throw new Error("still open");
    });
  });

  it("resume from the last resourceVersion seen without losing a change", async () => {
    sim = await startSimFixture();
    const list = await sim.core.listNamespacedPod({ namespace: "default" });
    await sim.core.createNamespacedPod({ namespace: "default", body: aPod("missed-while-away") });
    const watch = watchPods(sim, list.metadata!.resourceVersion);
    await watch.started;
    await eventually(() => {
      if (!watch.events.some((event) => event.type === "ADDED")) throw new Error("not replayed");
    });
  });
});

describe("injected API faults", () => {
  it("fail the matching request with the injected Status, then stop", async () => {
    sim = await startSimFixture();
    await sim.fault("api-faults", { verb: "list", resource: "pods", code: 500, message: "etcdserver: request timed out", count: 1 });
    const first = await sim.core.listNamespacedPod({ namespace: "default" }).then(() => 200, (error: ApiException<unknown>) => error.code);
    const second = await sim.core.listNamespacedPod({ namespace: "default" }).then(() => 200, (error: ApiException<unknown>) => error.code);
    expect([first, second]).toEqual([500, 200]);
  });
});

describe("injected latency", () => {
  it("holds the matching request for at least the injected time", async () => {
    sim = await startSimFixture();
    await sim.fault("api-faults", { verb: "list", resource: "pods", latencyMs: 300, count: 1 });
    const began = performance.now();
    await sim.core.listNamespacedPod({ namespace: "default" });
    expect(performance.now() - began).toBeGreaterThanOrEqual(300);
  });
});

describe("an injected 429", () => {
  it("reaches client-node as TooManyRequests with the injected message", async () => {
    sim = await startSimFixture();
    await sim.fault("api-faults", { verb: "get", resource: "nodes", code: 429, message: "too many requests, please try again later", count: 1 });
    const failure = await sim.core.readNode({ name: "worker-1" }).then(
      () => undefined,
      (error: ApiException<string>) => ({ code: error.code, ...(JSON.parse(error.body) as { reason: string; message: string }) }),
    );
    expect(failure).toMatchObject({ code: 429, reason: "TooManyRequests", message: "too many requests, please try again later" });
  });
});

describe("an injected throttle", () => {
  it("reaches client-node as the API server's own 429: plain text, with a Retry-After", async () => {
    sim = await startSimFixture();
    await sim.fault("api-faults", { verb: "get", resource: "nodes", code: 429, retryAfterSeconds: 2, count: 1 });
    const failure = await sim.core.readNode({ name: "worker-1" }).then(
      () => undefined,
      (error: ApiException<string>) => ({ code: error.code, retryAfter: error.headers["retry-after"], body: error.body }),
    );
    expect(failure).toEqual({ code: 429, retryAfter: "2", body: "Too many requests, please try again later.\n" });
  });
});

describe("clearing the injected faults", () => {
  it("brings back normal answers for a fault that had no count", async () => {
    sim = await startSimFixture();
    await sim.fault("api-faults", { verb: "list", resource: "pods", code: 503 });
    const listPods = () => sim!.core.listNamespacedPod({ namespace: "default" }).then(() => 200, (error: ApiException<unknown>) => error.code);
    const whileInjected = [await listPods(), await listPods()];
    await sim.clearApiFaults();
    expect([...whileInjected, await listPods()]).toEqual([503, 503, 200]);
  });
});

describe("a forced pod delete", () => {
  it("removes the pod at once, without its grace period", async () => {
    sim = await startSimFixture({ clockScale: 1 });
    await sim.core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "forced" }, spec: { nodeName: "worker-1", terminationGracePeriodSeconds: 30, containers: [{ name: "agent", image: "busybox", command: ["sleep", "infinity"] }] } } });
    await sim.fault("namespaces/default/pods/forced/delete", { force: true });
    const code = await sim.core.readNamespacedPod({ namespace: "default", name: "forced" }).then(() => 200, (error: ApiException<unknown>) => error.code);
    expect(code).toBe(404);
  });
});

describe("a restarted simulated cluster", () => {
  it("comes back with its objects and the files on its volumes", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "berth-sim-restart-"));
    dirs.push(dataDir);
    sim = await startSimFixture({ dataDir });
    await sim.custom.createNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", namespace: "default", plural: "sandboxes", body: aSandbox({ name: "survivor" }) });
    await eventually(async () => {
      const pod = await sim!.core.readNamespacedPod({ namespace: "default", name: "survivor" });
      if (pod.status?.phase !== "Running") throw new Error("not running");
    });
    await execIn(sim.config, "default", "survivor", ["sh", "-c", "echo remembered > /sandbox/memo"]);
    await sim.cluster.stop();
    sim = await startSimFixture({ dataDir });
    const memo = await eventually(() => execIn(sim!.config, "default", "survivor", ["cat", "/sandbox/memo"]).then((result) => {
      if (result.exitCode !== 0) throw new Error(result.stderr);
      return result.stdout;
    }));
    expect(memo).toBe("remembered\n");
  });
});
