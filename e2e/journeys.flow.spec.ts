import type { BrowserContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// The console's user journeys end to end, through the pages only: create from the form, work
// in the sandbox through the command runner, disrupt it from the Simulator in a second tab, and
// watch its page tell the story live — for each agent profile, for an ephemeral workspace, and
// for a retained claim that outlives its sandbox and starts the next one.

let counter = 0;
const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

const form = (page: Page) => page.getByRole("form", { name: "Create sandbox" });
const status = (page: Page) => page.getByRole("region", { name: "Status" });
const chart = (page: Page) => page.getByRole("img", { name: /^Timeline:/ });

/** Creates a sandbox from the form; `choose` picks what differs from the defaults. Returns on its page, Ready. */
async function createFromForm(page: Page, name: string, choose: (form: Locator) => Promise<void> = async () => {}) {
  if (!page.url().includes("/sandboxes/new")) await page.goto("/sandboxes/new");
  await form(page).getByLabel("Name", { exact: true }).fill(name);
  await choose(form(page));
  await form(page).getByRole("button", { name: "Create sandbox" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(status(page).getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });
}

/** Runs a line in the command runner and waits for it to succeed. */
async function run(page: Page, line: string) {
  await page.getByRole("textbox", { name: "Command" }).fill(line);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const entry = page.getByRole("list", { name: /^Commands run this visit/ }).getByRole("listitem", { name: `$ ${line}` }).first();
  await expect(entry).toContainText("exit code 0");
  return entry;
}

const outputOf = async (page: Page, line: string) => (await run(page, line)).getByLabel("Standard output");

/** Deletes the sandbox's pod from the Simulator page in another tab of the same browser. */
async function deletePodFromSimulator(context: BrowserContext, name: string) {
  const simulator = await context.newPage();
  await simulator.goto("/simulator");
  const pod = simulator.getByRole("list", { name: /^Sandbox pods on / }).getByRole("listitem").filter({ hasText: name });
  await pod.getByRole("button", { name: `Delete pod default/${name}` }).click();
  // The log names the action as soon as it is clicked; wait for its outcome, or closing the tab
  // could abort the request before the server has it.
  await expect(simulator.getByRole("log", { name: "What the simulator did" })).toContainText(`Pod default/${name} deleted`);
  await simulator.close();
}

for (const profile of [
  { label: "Generic", name: "generic" },
  { label: "Claude Code", name: "claude" },
  { label: "OpenCode", name: "opencode" },
]) {
  test(`a ${profile.name} sandbox made in the form keeps its file through a pod deletion, and its page shows the disruption and recovery live`, async ({ page, context }) => {
    const name = uniqueName(profile.name);
    await createFromForm(page, name, (form) => form.getByRole("radio", { name: new RegExp(`^${profile.label}`) }).check());
    await run(page, `echo kept by ${profile.name} > /sandbox/journey.txt`);

    await deletePodFromSimulator(context, name);

    await expect(chart(page)).toHaveAccessibleName(/2 pod instances .*1 disruption: PodDeleted .*recovered/, { timeout: 30_000 });
    await expect(chart(page)).toHaveAccessibleName(/durable state restored/, { timeout: 15_000 });
    await expect(status(page).getByText("Ready", { exact: true })).toBeVisible();
    await expect(await outputOf(page, "cat /sandbox/journey.txt")).toHaveText(`kept by ${profile.name}`);
  });
}

test("an ephemeral sandbox has no claim on the Volumes page, and its workspace is fresh after a pod deletion", async ({ page, context }) => {
  const name = uniqueName("scratch");
  await createFromForm(page, name, (form) => form.getByRole("radio", { name: /^Ephemeral/ }).check());
  await run(page, "echo scratch > /sandbox/journey.txt");

  const volumes = await context.newPage();
  await volumes.goto("/volumes");
  await expect(volumes.getByRole("heading", { level: 1, name: "Volumes" })).toBeVisible();
  await expect(volumes.getByRole("main")).not.toContainText(name);
  await volumes.close();

  await deletePodFromSimulator(context, name);
  await expect(chart(page)).toHaveAccessibleName(/2 pod instances .*recovered/, { timeout: 30_000 });
  await expect(chart(page)).toHaveAccessibleName(/durable state lost/, { timeout: 15_000 });
  await expect(await outputOf(page, "test -f /sandbox/journey.txt && echo present || echo absent")).toHaveText("absent");
});

test("a retained claim outlives its sandbox, shows as detached, and starts a new sandbox that reads the old file", async ({ page }) => {
  const first = uniqueName("keeper");
  const claim = `workspace-${first}`;
  await createFromForm(page, first, (form) => form.getByRole("radio", { name: /^Retained/ }).check());
  await run(page, "echo written by the first sandbox > /sandbox/journey.txt");

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("alertdialog", { name: `Delete sandbox ${first}?` });
  await expect(dialog.getByRole("list", { name: "Claims kept" })).toContainText(claim);
  await dialog.getByRole("button", { name: `Delete ${first}` }).click();
  await expect(page).toHaveURL(/\/sandboxes$/);

  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Volumes" }).click();
  const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${claim}\\b`) }) });
  await expect(row.getByText("Detached", { exact: true })).toBeVisible({ timeout: 20_000 });
  await row.getByRole("link", { name: `Start a sandbox from ${claim}` }).click();

  await expect(form(page).getByRole("radio", { name: /^Existing claim/ })).toBeChecked();
  await expect(form(page).getByLabel("Existing claim", { exact: true })).toHaveValue(claim);
  const second = uniqueName("heir");
  await createFromForm(page, second);
  await expect(await outputOf(page, "cat /sandbox/journey.txt")).toHaveText("written by the first sandbox");
});
