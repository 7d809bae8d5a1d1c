import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// The Simulator page on the embedded cluster: disrupt a sandbox's pod and its node from the
// browser and see the cluster and the sandbox change, live. Each test leaves the nodes as it
// found them (schedulable, up).

interface Sandbox {
  id: string;
  name: string;
  phase: string;
  podUid: string | null;
  nodeName: string | null;
}

let counter = 0;
const uniqueName = () => `sim-${Date.now().toString(36)}-${++counter}`;

async function readySandbox(request: APIRequestContext, spec: Record<string, unknown> = {}): Promise<Sandbox> {
  const created = await request.post("/api/v1/sandboxes", { data: { name: uniqueName(), workspace: { claim: { storageClassName: "portable" } }, ...spec } });
  const { id } = (await created.json()) as { id: string };
  let sandbox: Sandbox | undefined;
  await expect.poll(async () => (sandbox = (await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as Sandbox).phase, { timeout: 30_000 }).toBe("Ready");
  return sandbox!;
}

/** The sandbox's row among the pods of whichever node it is on now. */
const podRow = (page: Page, name: string) => page.getByRole("list", { name: /^Sandbox pods on / }).getByRole("listitem").filter({ hasText: name });

const read = async (request: APIRequestContext, id: string) => (await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as Sandbox;

test("the navigation offers the Simulator on the embedded cluster", async ({ page, request }) => {
  const health = (await (await request.get("/api/health")).json()) as { cluster: { mode: string } };
  expect(health.cluster.mode).toBe("embedded");
  await page.goto("/nodes");
  const nav = page.getByRole("navigation", { name: "Console" });
  await nav.getByRole("link", { name: "Simulator" }).click();
  await expect(page).toHaveURL(/\/simulator$/);
  await expect(page).toHaveTitle("Simulator · Berth");
  await expect(nav.getByRole("link", { name: "Simulator" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("main").getByRole("heading", { level: 2, name: "worker-1" })).toBeVisible();
});

test("deleting a sandbox's pod from the Simulator: the result links to the sandbox, which is recovered", async ({ page, request }) => {
  const sandbox = await readySandbox(request);
  await page.goto("/simulator");
  const card = page.getByRole("region", { name: sandbox.nodeName!, exact: true });
  const pod = card.getByRole("list", { name: `Sandbox pods on ${sandbox.nodeName}` }).getByRole("listitem").filter({ hasText: sandbox.name });
  await expect(pod.getByRole("link", { name: sandbox.name })).toHaveAttribute("href", `/sandboxes/${sandbox.id}`);

  await pod.getByRole("button", { name: `Delete pod default/${sandbox.name}` }).click();
  const result = card.getByRole("status", { name: `Last action on ${sandbox.nodeName}` });
  await expect(result).toContainText(`Pod default/${sandbox.name} deleted`);
  await expect(result.getByRole("link", { name: sandbox.name })).toHaveAttribute("href", `/sandboxes/${sandbox.id}`);
  await expect(page.getByRole("log", { name: "What the simulator did" })).toContainText(`Deleting pod default/${sandbox.name}`);

  await expect.poll(async () => {
    const now = await read(request, sandbox.id);
    return now.phase === "Ready" && now.podUid !== sandbox.podUid;
  }, { timeout: 30_000 }).toBe(true);
  // The page follows without a reload: the sandbox is Ready on a node again.
  await expect(podRow(page, sandbox.name).getByText("Ready", { exact: true })).toBeVisible();
});

test("losing a node and restoring it: the node's state and its sandbox change live", async ({ page, request }) => {
  const sandbox = await readySandbox(request);
  const node = sandbox.nodeName!;
  await page.goto("/simulator");
  const card = page.getByRole("region", { name: node, exact: true });
  try {
    await card.getByRole("button", { name: `Lose node ${node}` }).click();
    await expect(card.getByRole("status", { name: `Last action on ${node}` })).toContainText("kubelet stopped answering");
    await expect(card.getByText("Kubelet stopped", { exact: true })).toBeVisible();
    // The control plane notices after its grace period; Berth calls it a disruption.
    await expect(card.getByText("Not Ready", { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(podRow(page, sandbox.name)).toContainText("Disrupted", { timeout: 20_000 });

    await card.getByRole("button", { name: `Restore node ${node}` }).click();
    await expect(card.getByRole("status", { name: `Last action on ${node}` })).toContainText("kubelet is back");
    await expect(card.getByText("Kubelet stopped", { exact: true })).toHaveCount(0);
    await expect(card.getByText("Not Ready", { exact: true })).toHaveCount(0, { timeout: 20_000 });
    await expect(podRow(page, sandbox.name).getByText("Ready", { exact: true })).toBeVisible({ timeout: 40_000 });
  } finally {
    await request.post(`/api/v1/simulator/nodes/${node}/restore`);
  }
});

test("cordoning a node from the Simulator marks it Cordoned, and uncordoning clears it, live", async ({ page, request }) => {
  const node = "worker-1";
  await page.goto("/simulator");
  const card = page.getByRole("region", { name: node, exact: true });
  try {
    await card.getByRole("button", { name: `Cordon ${node}`, exact: true }).click();
    await expect(card.getByText("Cordoned", { exact: true })).toBeVisible();
    await expect(card.getByRole("status", { name: `Last action on ${node}` })).toContainText(`${node} is cordoned`);

    await card.getByRole("button", { name: `Uncordon ${node}`, exact: true }).click();
    await expect(card.getByText("Cordoned", { exact: true })).toHaveCount(0);
    await expect(card.getByRole("button", { name: `Cordon ${node}`, exact: true })).toBeVisible();
  } finally {
    await request.post(`/api/v1/simulator/nodes/${node}/uncordon`);
  }
});

test("kubelet-evicting a sandbox's pod from the Simulator shows the sandbox Disrupted by ResourcePressure", async ({ page, request }) => {
  // With auto-recovery off the Failed pod stays, and so does the reason.
  const sandbox = await readySandbox(request, { disruptionPolicy: { autoRecoverFailedPods: false } });
  try {
    await page.goto("/simulator");
    await podRow(page, sandbox.name).getByRole("button", { name: `Kubelet-evict default/${sandbox.name}` }).click();
    await expect(page.getByRole("status", { name: `Last action on ${sandbox.nodeName}` })).toContainText("under memory pressure");
    await expect(podRow(page, sandbox.name).getByText("ResourcePressure", { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(podRow(page, sandbox.name).getByText("Disrupted", { exact: true })).toBeVisible();
  } finally {
    await request.delete(`/api/v1/sandboxes/${sandbox.id}`);
  }
});

test("preempting a sandbox's pod from the Simulator shows the sandbox Disrupted by Preempted", async ({ page, request }) => {
  // A long grace period (600 s simulated, 30 s here) keeps the preempted pod, and the reason, in view.
  const sandbox = await readySandbox(request, { disruptionPolicy: { terminationGracePeriodSeconds: 600 } });
  try {
    await page.goto("/simulator");
    await podRow(page, sandbox.name).getByRole("button", { name: `Preempt default/${sandbox.name}` }).click();
    await expect(page.getByRole("status", { name: `Last action on ${sandbox.nodeName}` })).toContainText("preempted");
    await expect(podRow(page, sandbox.name).getByText("Preempted", { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(podRow(page, sandbox.name).getByText("Disrupted", { exact: true })).toBeVisible();
  } finally {
    await request.delete(`/api/v1/sandboxes/${sandbox.id}`);
  }
});
