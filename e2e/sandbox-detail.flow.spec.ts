import type { APIRequestContext, Page } from "@playwright/test";
import { clusterAdmin } from "./embedded-cluster.ts";
import { expect, forgiveRefusedRequests, test } from "./fixtures.ts";

// The sandbox detail page, driven the way a person uses it: each test makes its own sandbox
// through the API, then reads and acts on it only through the page.

let counter = 0;
const uniqueName = () => `detail-${Date.now().toString(36)}-${++counter}`;

type Sandbox = { id: string; name: string; namespace: string };

async function createSandbox(request: APIRequestContext, body: Record<string, unknown> = {}): Promise<Sandbox> {
  const response = await request.post("/api/v1/sandboxes", { data: { name: uniqueName(), ...body } });
  expect(response.status()).toBe(201);
  return (await response.json()) as Sandbox;
}

/** Ready in the sense that matters here: it runs commands. */
async function readySandbox(request: APIRequestContext, body: Record<string, unknown> = {}): Promise<Sandbox> {
  const sandbox = await createSandbox(request, body);
  await expect
    .poll(async () => (await request.post(`/api/v1/sandboxes/${sandbox.id}/exec`, { data: { command: ["true"] } })).status(), { timeout: 30_000 })
    .toBe(200);
  return sandbox;
}

async function run(page: Page, line: string) {
  await page.getByRole("textbox", { name: "Command" }).fill(line);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  return page.getByRole("list", { name: /^Commands run this visit/ }).getByRole("listitem", { name: `$ ${line}` });
}

type Observed = Sandbox & { phase: string; podUid: string | null; nodeName: string | null };

const read = async (request: APIRequestContext, id: string) => (await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as Observed;

/** Disrupts the sandbox's pod through the Simulator API, as the Simulator page does. */
async function simulate(request: APIRequestContext, sandbox: Sandbox, action: "delete" | "kubelet-evict" | "preempt") {
  const response = await request.post(`/api/v1/simulator/pods/${sandbox.namespace}/${sandbox.name}/${action}`);
  expect(response.ok(), await response.text()).toBe(true);
}

/** A sandbox whose policy leaves a Failed pod alone, once the kubelet has evicted its pod: it waits for someone to recover it. */
async function evictedSandbox(request: APIRequestContext): Promise<Sandbox> {
  const sandbox = await readySandbox(request, { disruptionPolicy: { autoRecoverFailedPods: false } });
  await simulate(request, sandbox, "kubelet-evict");
  await expect.poll(async () => (await read(request, sandbox.id)).phase, { timeout: 30_000 }).toBe("Disrupted");
  return sandbox;
}

const status = (page: Page) => page.getByRole("region", { name: "Status" });
/** The cells of a condition's row in the Conditions table: status, reason, message, last transition. */
const conditionCells = (page: Page, type: string) =>
  page.getByRole("table", { name: "Conditions" }).getByRole("row").filter({ has: page.getByRole("rowheader", { name: type, exact: true }) }).getByRole("cell");
/** The value beside a term in one of the page's facts panels. */
const fact = (page: Page, panel: string, term: string) =>
  page.getByRole("region", { name: panel }).getByRole("term").filter({ hasText: new RegExp(`^${term}$`) }).locator("xpath=..").getByRole("definition");
const chart = (page: Page) => page.getByRole("img", { name: /^Timeline:/ });
const events = (page: Page) => page.getByRole("region", { name: "Timeline events, newest first" });

test("a sandbox's name in the Sandboxes table opens its detail page, which follows it to Ready", async ({ page, request }) => {
  const sandbox = await createSandbox(request);
  await page.goto("/sandboxes");
  await page.getByRole("link", { name: sandbox.name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: sandbox.name })).toBeVisible();
  await expect(status(page).getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });
});

test("the page shows where the sandbox runs and the claim behind its workspace", async ({ page, request }) => {
  const sandbox = await readySandbox(request);
  await page.goto(`/sandboxes/${sandbox.id}`);
  await expect(page.getByRole("region", { name: "Identity" }).getByRole("definition").filter({ hasText: /^worker-\d+$/ })).toHaveCount(1);
  await expect(page.getByRole("table", { name: `Claims of ${sandbox.name}` }).getByRole("row", { name: new RegExp(`workspace-${sandbox.name}`) })).toContainText("Removed with the sandbox");
});

test("the command runner writes a file and reads it back", async ({ page, request }) => {
  const sandbox = await readySandbox(request);
  await page.goto(`/sandboxes/${sandbox.id}`);
  await expect(await run(page, "echo hello > /sandbox/note.txt")).toContainText("exit code 0");
  await expect((await run(page, "cat /sandbox/note.txt")).getByLabel("Standard output")).toHaveText("hello");
});

test("a command that fails shows its exit code and standard error", async ({ page, request }) => {
  const sandbox = await readySandbox(request);
  await page.goto(`/sandboxes/${sandbox.id}`);
  const entry = await run(page, "echo oops >&2; exit 3");
  await expect(entry).toContainText("exit code 3");
  await expect(entry.getByLabel("Standard error")).toHaveText("oops");
});

test("a checkpoint taken from the page shows in the checkpoints list and on the timeline", async ({ page, request }) => {
  const sandbox = await readySandbox(request);
  await page.goto(`/sandboxes/${sandbox.id}`);
  await page.getByRole("button", { name: "Checkpoint", exact: true }).click();
  await expect(status(page)).toContainText("Checkpoint Succeeded");
  await expect(page.getByRole("table", { name: "Checkpoints" }).getByRole("row").filter({ hasText: "Manual" })).toContainText("Succeeded");
  await expect(events(page)).toContainText("CheckpointSucceeded");
  await expect(chart(page)).toHaveAccessibleName(/1 checkpoint/);
});

test("a deleted pod adds a second lane and a recovery span without a reload, and the workspace file reads back", async ({ page, request }, testInfo) => {
  const sandbox = await readySandbox(request);
  await request.post(`/api/v1/sandboxes/${sandbox.id}/exec`, { data: { command: ["sh", "-c", "echo hello > /sandbox/note.txt"] } });
  await page.goto(`/sandboxes/${sandbox.id}`);
  await expect(chart(page)).toHaveAccessibleName(/^Timeline: 1 pod instance /);

  const deleted = await clusterAdmin(testInfo.project.name)(`/sim/v1/namespaces/${sandbox.namespace}/pods/${sandbox.name}/delete`, { method: "POST", body: "{}" });
  expect(deleted.ok).toBe(true);

  await expect(chart(page)).toHaveAccessibleName(/2 pod instances .*1 disruption: PodDeleted .*recovered/, { timeout: 30_000 });
  await expect(chart(page)).toHaveAccessibleName(/durable state restored/, { timeout: 15_000 });
  await expect(events(page)).toContainText("Recovered");
  await expect(status(page).getByText("Ready", { exact: true })).toBeVisible();
  await expect((await run(page, "cat /sandbox/note.txt")).getByLabel("Standard output")).toHaveText("hello");
});

test("a sandbox whose policy turns auto-recovery off says, once the kubelet evicts its pod, that it waits to be recovered, and offers Recover", async ({ page, request }) => {
  const sandbox = await readySandbox(request, { disruptionPolicy: { autoRecoverFailedPods: false } });
  await page.goto(`/sandboxes/${sandbox.id}`);
  const recover = page.getByRole("button", { name: "Recover", exact: true });
  await expect(recover).toBeDisabled();

  await simulate(request, sandbox, "kubelet-evict");
  await expect(status(page).getByText("Disrupted", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(status(page)).toContainText("ResourcePressure");
  await expect(status(page)).toContainText("otherwise recover it");
  await expect(conditionCells(page, "Recovering")).toContainText(["False", "NotReplaced"]);
  await expect(recover).toBeEnabled();
});

test("Recover brings a kubelet-evicted sandbox back to Ready without a reload, and the timeline records the recovery", async ({ page, request }) => {
  const sandbox = await evictedSandbox(request);
  await page.goto(`/sandboxes/${sandbox.id}`);
  await page.getByRole("button", { name: "Recover", exact: true }).click();
  await expect(status(page)).toContainText("Recovery requested");
  await expect(status(page).getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(events(page)).toContainText("RecoveryRequested");
  await expect(events(page)).toContainText("Recovered");
  await expect(chart(page)).toHaveAccessibleName(/2 pod instances .*1 disruption: ResourcePressure .*recovered/);
});

test("while a deleted pod terminates, the conditions say Disrupted by PodDeleted and a replacement pending", async ({ page, request }) => {
  // A long grace period (600 s simulated, 30 s here) holds the sandbox in the disruption.
  const sandbox = await readySandbox(request, { disruptionPolicy: { terminationGracePeriodSeconds: 600 } });
  await page.goto(`/sandboxes/${sandbox.id}`);
  await expect(conditionCells(page, "Disrupted")).toContainText(["False", "NoDisruption"]);
  await simulate(request, sandbox, "delete");
  await expect(conditionCells(page, "Disrupted")).toContainText(["True", "PodDeleted"], { timeout: 15_000 });
  await expect(conditionCells(page, "Recovering")).toContainText(["True", "ReplacementPending"]);
});

test("after a pod deletion, Identity names the previous pod UID and node, and the conditions say how the disruption ended", async ({ page, request }) => {
  const sandbox = await readySandbox(request);
  const before = await read(request, sandbox.id);
  await page.goto(`/sandboxes/${sandbox.id}`);
  await expect(fact(page, "Identity", "Previous pod UID")).toHaveText("none");

  await simulate(request, sandbox, "delete");
  await expect(fact(page, "Identity", "Previous pod UID")).toHaveText(before.podUid!, { timeout: 30_000 });
  await expect(fact(page, "Identity", "Previous node")).toHaveText(before.nodeName!);
  await expect(fact(page, "Identity", "Pod UID")).not.toHaveText(before.podUid!);
  await expect(conditionCells(page, "Disrupted")).toContainText(["False", "Recovered"]);
  await expect(conditionCells(page, "Recovering")).toContainText(["False", "Recovered"]);
});

test("Delete names the claim it removes, and once confirmed returns to the Sandboxes list", async ({ page, request }) => {
  const sandbox = await readySandbox(request);
  await page.goto(`/sandboxes/${sandbox.id}`);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("alertdialog", { name: `Delete sandbox ${sandbox.name}?` });
  await expect(dialog.getByRole("list", { name: "Claims removed" })).toContainText(`workspace-${sandbox.name}`);
  await dialog.getByRole("button", { name: `Delete ${sandbox.name}` }).click();
  await expect(page).toHaveURL(/\/sandboxes$/);
  await expect(page.getByRole("rowheader", { name: sandbox.name })).toHaveCount(0);
});

test("Delete keeps a retained claim, and says so before anything is deleted", async ({ page, request }) => {
  const sandbox = await createSandbox(request, { workspace: { claim: { ownership: "retain" } } });
  await page.goto(`/sandboxes/${sandbox.id}`);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("alertdialog", { name: `Delete sandbox ${sandbox.name}?` });
  await expect(dialog.getByRole("list", { name: "Claims kept" })).toContainText(`workspace-${sandbox.name}`);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
});

test("Start is offered only to a stopped sandbox, and Stop then Start bring it back", async ({ page, request }) => {
  const sandbox = await readySandbox(request);
  await page.goto(`/sandboxes/${sandbox.id}`);
  await expect(page.getByRole("button", { name: "Start", exact: true })).toBeDisabled();
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(status(page).getByText("Stopped", { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Start", exact: true }).click();
  await expect(status(page).getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });
});

test("an action the server refuses shows its problem title and detail", async ({ page, request, browserErrors }) => {
  const sandbox = await readySandbox(request);
  await page.goto(`/sandboxes/${sandbox.id}`);
  await page.route(`**/api/v1/sandboxes/${sandbox.id}/checkpoint`, (route) =>
    route.fulfill({ status: 409, contentType: "application/problem+json", body: JSON.stringify({ type: "https://berth.dev/problems/wrong-state", title: "The sandbox cannot do that now", status: 409, detail: "It is already checkpointing.", code: "wrong-state" }) }),
  );
  await page.getByRole("button", { name: "Checkpoint", exact: true }).click();
  const alert = status(page).getByRole("alert");
  await expect(alert).toContainText("The sandbox cannot do that now");
  await expect(alert).toContainText("It is already checkpointing.");
  // The browser logs the refusal itself, as it should; nothing else may be logged.
  browserErrors.splice(0, browserErrors.length, ...browserErrors.filter((error) => !error.includes("409")));
});

test("the timeline zooms with the keyboard", async ({ page, request }) => {
  const sandbox = await readySandbox(request);
  await page.goto(`/sandboxes/${sandbox.id}`);
  const zoom = page.getByRole("slider", { name: "Zoom" });
  await zoom.focus();
  await page.keyboard.press("ArrowRight");
  await expect(zoom).toHaveAttribute("aria-valuetext", /^2×/);
  await page.getByRole("button", { name: "Reset zoom" }).click();
  await expect(zoom).toHaveAttribute("aria-valuetext", /^1×/);
});

test("an unknown sandbox id answers 404", async ({ page, browserErrors }) => {
  const answer = await page.goto("/sandboxes/00000000-0000-4000-8000-000000000000");
  expect(answer?.status()).toBe(404);
  forgiveRefusedRequests(browserErrors, 404);
});

test("an unknown sandbox id shows a page that says so and links back", async ({ page, browserErrors }) => {
  await page.goto("/sandboxes/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { level: 1, name: "No such sandbox" })).toBeVisible();
  await expect(page.getByRole("link", { name: "See every sandbox Berth knows" })).toBeVisible();
  // The browser logs the 404 answer itself, as it should; nothing else may be logged.
  browserErrors.splice(0, browserErrors.length, ...browserErrors.filter((error) => !error.includes("404")));
});

// What the event stream pushes goes straight into the page: a change in the cluster reaches the
// screen without the page asking the server again.
test.describe("live updates from the event stream", () => {
  /** Every request for sandboxes the page makes from now on (the stream itself aside). */
  const sandboxRequests = (page: Page) => {
    const asked: string[] = [];
    page.on("request", (sent) => {
      const url = new URL(sent.url());
      if (url.pathname.startsWith("/api/v1/sandboxes")) asked.push(`${sent.method()} ${url.pathname}${url.search}`);
    });
    return asked;
  };
  const live = (page: Page) => page.getByRole("status").filter({ hasText: /^Live$/ });

  test("an eviction shows in the Sandboxes list without the list being read again", async ({ page, request }) => {
    const sandbox = await readySandbox(request, { disruptionPolicy: { autoRecoverFailedPods: false } });
    const mounted = page.waitForResponse((answer) => new URL(answer.url()).pathname === "/api/v1/sandboxes");
    await page.goto("/sandboxes");
    await mounted;
    await expect(live(page)).toBeVisible();
    const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: sandbox.name }) });
    await expect(row).toContainText("Ready");
    const asked = sandboxRequests(page);
    await simulate(request, sandbox, "kubelet-evict");
    await expect(row).toContainText("Disrupted", { timeout: 30_000 });
    expect(asked).toEqual([]);
  });

  test("an eviction shows on the sandbox's page, status and timeline, without either being read again", async ({ page, request }) => {
    const sandbox = await readySandbox(request, { disruptionPolicy: { autoRecoverFailedPods: false } });
    const mounted = ["", "/timeline", "/checkpoints"].map((path) => page.waitForResponse((answer) => new URL(answer.url()).pathname === `/api/v1/sandboxes/${sandbox.id}${path}`));
    await page.goto(`/sandboxes/${sandbox.id}`);
    await Promise.all(mounted);
    await expect(live(page)).toBeVisible();
    const asked = sandboxRequests(page);
    await simulate(request, sandbox, "kubelet-evict");
    await expect(status(page).getByText("Disrupted", { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(events(page)).toContainText("The kubelet on node");
    expect(asked).toEqual([]);
  });
});
