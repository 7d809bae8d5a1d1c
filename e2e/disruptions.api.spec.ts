import type { APIRequestContext } from "@playwright/test";
import { clusterAdmin } from "./embedded-cluster.ts";
import { expect, test } from "./fixtures.ts";

// Disruptions and maintenance through Berth's API against the running server's embedded cluster.
// The cluster's own fault API (GET /api/health names its address) plays the kubelet and the
// operator. Tests in this project run one at a time, and each leaves the nodes schedulable.

interface Sandbox {
  id: string;
  name: string;
  phase: string;
  reason: string | null;
  podUid: string | null;
  nodeName: string | null;
}

let counter = 0;
const uniqueName = () => `disrupt-${Date.now().toString(36)}-${++counter}`;

async function readySandbox(request: APIRequestContext, spec: Record<string, unknown>): Promise<Sandbox> {
  const { id } = (await (await request.post("/api/v1/sandboxes", { data: { name: uniqueName(), ...spec } })).json()) as { id: string };
  let sandbox: Sandbox | undefined;
  await expect.poll(async () => (sandbox = (await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as Sandbox).phase, { timeout: 20_000 }).toBe("Ready");
  return sandbox!;
}

const reasonsOf = async (request: APIRequestContext, id: string) => ((await (await request.get(`/api/v1/sandboxes/${id}/timeline`)).json()) as { items: { reason: string }[] }).items.map((event) => event.reason);

test("a pod the kubelet evicts under memory pressure is recovered automatically, and the timeline says so", async ({ request }, testInfo) => {
  const before = await readySandbox(request, {});
  await clusterAdmin(testInfo.project.name)(`/sim/v1/namespaces/default/pods/${before.name}/kubelet-evict`, { method: "POST", body: JSON.stringify({ resource: "memory" }) });
  await expect.poll(async () => {
    const now = (await (await request.get(`/api/v1/sandboxes/${before.id}`)).json()) as Sandbox;
    return now.phase === "Ready" && now.podUid !== before.podUid;
  }, { timeout: 20_000 }).toBe(true);
  expect(await reasonsOf(request, before.id)).toEqual(expect.arrayContaining(["Disrupted", "AutoRecovery", "Recovered"]));
});

test("maintenance of a node checkpoints its sandboxes and evicts them, reporting each one's step", async ({ request }, testInfo) => {
  const sandbox = await readySandbox(request, { disruptionPolicy: { checkpointHook: ["sh", "-c", "sync"] } });
  const node = sandbox.nodeName!;
  try {
    const started = await request.post(`/api/v1/nodes/${node}/maintenance`, { data: { parallelism: 8, replacementTimeoutSeconds: 30 } });
    const { id } = (await started.json()) as { id: string };
    expect(started.status()).toBe(202);
    let run: { state: string; progress: { sandboxes: { sandboxId: string; step: string }[] } } | undefined;
    await expect.poll(async () => (run = (await (await request.get(`/api/v1/maintenance/${id}`)).json()) as typeof run)!.state, { timeout: 90_000 }).not.toBe("Running");
    // The embedded cluster's default storage is node-pinned: the sandbox waits for its node.
    expect([run!.state, run!.progress.sandboxes.find((entry) => entry.sandboxId === sandbox.id)?.step]).toEqual(["Succeeded", "WaitingForNode"]);
  } finally {
    await clusterAdmin(testInfo.project.name)(`/sim/v1/nodes/${node}/uncordon`, { method: "POST" });
  }
});
