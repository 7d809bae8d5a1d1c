import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// Maintenance from the Nodes page: preview a drain of the node a protected sandbox runs on,
// start it in the confirmation, and watch each step and the outcome arrive without a reload.

interface Sandbox {
  id: string;
  name: string;
  phase: string;
  nodeName: string | null;
}

let counter = 0;
const uniqueName = () => `maint-${Date.now().toString(36)}-${++counter}`;

async function readySandbox(request: APIRequestContext, spec: Record<string, unknown>): Promise<Sandbox> {
  const created = await request.post("/api/v1/sandboxes", { data: spec });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  let sandbox: Sandbox | undefined;
  await expect.poll(async () => (sandbox = (await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as Sandbox).phase, { timeout: 30_000 }).toBe("Ready");
  return sandbox!;
}

test("a drain of a node with a protected sandbox: the preview, the confirmation, live progress, the outcome and the history", async ({ page, request, context }) => {
  const sandbox = await readySandbox(request, {
    name: uniqueName(),
    // Portable storage lets it move; protection and a hook make maintenance checkpoint it first.
    workspace: { claim: { storageClassName: "portable" } },
    disruptionPolicy: { evictionProtection: true, checkpointHook: ["sh", "-c", "echo saved > /sandbox/saved.txt"] },
  });
  const node = sandbox.nodeName!;
  try {
    // The sandbox's own page, open in another tab from before the run, must follow it live.
    const sandboxPage = await context.newPage();
    await sandboxPage.goto(`/sandboxes/${sandbox.id}`);
    const chart = sandboxPage.getByRole("img", { name: /^Timeline:/ });
    await expect(chart).toHaveAccessibleName(/^Timeline: 1 pod instance .*no disruptions; 0 checkpoints/);

    await page.goto("/nodes");
    const card = page.getByRole("region", { name: node, exact: true });
    await card.getByRole("button", { name: "Preview a drain" }).click();

    // The preview says what will happen to it.
    const preview = card.getByRole("table", { name: `What draining ${node} would do` });
    const row = preview.getByRole("row").filter({ hasText: sandbox.name });
    await expect(row).toContainText("Moves elsewhere");
    await expect(row).toContainText("checkpointed first");

    // The confirmation repeats the preview's summary; it is operated with the keyboard.
    await card.getByRole("button", { name: "Start maintenance…" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog", { name: `Start maintenance of ${node}?` });
    await expect(dialog).toContainText(`${node} is cordoned first`);
    await expect(dialog).toContainText("protected by a PodDisruptionBudget");
    await expect(dialog.getByRole("button", { name: "Not now" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(dialog.getByRole("button", { name: "Start maintenance" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();

    // The run's progress takes the focus and updates in place until the outcome.
    const run = card.getByRole("region", { name: /^Maintenance run/ });
    await expect(run.getByRole("heading", { name: /^Maintenance run/ })).toBeFocused();
    const status = run.getByRole("status");
    await expect(status).toContainText("Running");
    const step = run.getByRole("table", { name: `Sandboxes in the maintenance run of ${node}` }).getByRole("row").filter({ hasText: sandbox.name });
    await expect(step.getByRole("link", { name: sandbox.name })).toHaveAttribute("href", `/sandboxes/${sandbox.id}`);
    await expect(step).toContainText("Recovered", { timeout: 60_000 });
    await expect(status).toContainText("Succeeded", { timeout: 60_000 });
    await expect(run).toContainText(`Maintenance of ${node} is done`);
    await expect(run).toContainText(`kubectl uncordon ${node}`);
    await expect(run.getByRole("button", { name: "Cancel maintenance" })).toHaveCount(0);

    // As the preview said: it moved to another node.
    const moved = (await (await request.get(`/api/v1/sandboxes/${sandbox.id}`)).json()) as Sandbox;
    expect([moved.phase, moved.nodeName === node]).toEqual(["Ready", false]);

    // The hook ran before the eviction, and what it wrote came along to the new node.
    const read = await request.post(`/api/v1/sandboxes/${sandbox.id}/exec`, { data: { command: ["cat", "/sandbox/saved.txt"] } });
    expect(((await read.json()) as { stdout: string }).stdout).toBe("saved\n");

    // The sandbox's page drew the checkpoint, the drain and the recovery as they happened.
    await expect(chart).toHaveAccessibleName(/2 pod instances .*1 disruption: NodeDrained.*recovered.*; 1 checkpoint/);
    await expect(sandboxPage.getByRole("region", { name: "Timeline events, newest first" })).toContainText("CheckpointSucceeded");
    await sandboxPage.close();

    // The history has the run, and the node is shown cordoned — all without a reload.
    const history = card.getByRole("table", { name: `Maintenance history of ${node}` });
    await expect(history.getByRole("row").filter({ hasText: "Succeeded" })).toHaveCount(1);
    await expect(card.getByText("Cordoned", { exact: true })).toBeVisible();
  } finally {
    await request.post(`/api/v1/simulator/nodes/${node}/uncordon`);
  }
});

test("a sandbox whose checkpoint fails under policy Block blocks the run, and the page says what to do", async ({ page, request }) => {
  const sandbox = await readySandbox(request, {
    name: uniqueName(),
    workspace: { claim: { storageClassName: "portable" } },
    disruptionPolicy: { evictionProtection: true, checkpointHook: ["sh", "-c", "exit 3"], checkpointFailurePolicy: "Block" },
  });
  const node = sandbox.nodeName!;
  try {
    await page.goto("/nodes");
    const card = page.getByRole("region", { name: node, exact: true });
    await card.getByRole("button", { name: "Preview a drain" }).click();
    await card.getByRole("button", { name: "Start maintenance…" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Start maintenance" }).click();

    const run = card.getByRole("region", { name: /^Maintenance run/ });
    await expect(run.getByRole("status")).toContainText("Blocked", { timeout: 60_000 });
    const step = run.getByRole("row").filter({ hasText: sandbox.name });
    await expect(step).toContainText("Blocked");
    await expect(step).toContainText(`keeps it on ${node}, protected by PodDisruptionBudget ${sandbox.name}-disruption-budget, and it was not evicted`);
    await expect(run).toContainText("Do what each blocked row says");
    // It was not moved: still on the node, Ready.
    const now = (await (await request.get(`/api/v1/sandboxes/${sandbox.id}`)).json()) as Sandbox;
    expect([now.phase, now.nodeName]).toEqual(["Ready", node]);
  } finally {
    await request.post(`/api/v1/simulator/nodes/${node}/uncordon`);
  }
});
