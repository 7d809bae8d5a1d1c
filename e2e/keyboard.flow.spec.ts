import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// Every action on every page is reachable with the Tab key alone: each visible control that
// can take the focus gets it, in turn, from the top of the page. Radio buttons count once per
// group (Tab enters a group, the arrow keys move within it), and controls a component keeps
// out of the tab order on purpose (tabindex -1, such as inactive tabs) are not actions to tab to.

const PAGES = ["/sandboxes", "/sandboxes/new", "/templates", "/templates/new", "/volumes", "/volumes/new", "/volumes/clean-up", "/nodes", "/settings", "/simulator"];

/** The controls Tab never reached, by their accessible text, after enough presses to reach all. */
async function missedByTab(page: Page): Promise<string[]> {
  const count = await page.evaluate(() => {
    const candidates = [...document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, summary, [tabindex]")];
    const seenGroups = new Set<string>();
    let index = 0;
    for (const element of candidates) {
      const disabled = (element as HTMLButtonElement).disabled === true;
      const radio = element instanceof HTMLInputElement && element.type === "radio";
      if (disabled || element.tabIndex < 0 || !element.checkVisibility({ visibilityProperty: true })) continue;
      if (radio && seenGroups.has(element.name)) continue;
      if (radio) seenGroups.add(element.name);
      element.dataset.tabTarget = String(index++);
    }
    return index;
  });
  const reached = new Set<string>();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let press = 0; press < count + 10; press++) {
    await page.keyboard.press("Tab");
    const target = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      if (active instanceof HTMLInputElement && active.type === "radio") {
        return document.querySelector<HTMLElement>(`input[type=radio][name="${CSS.escape(active.name)}"][data-tab-target]`)?.dataset.tabTarget ?? null;
      }
      return active?.dataset.tabTarget ?? null;
    });
    if (target !== null) reached.add(target);
  }
  return page.evaluate((seen) => {
    const missed = [...document.querySelectorAll<HTMLElement>("[data-tab-target]")].filter((element) => !seen.includes(element.dataset.tabTarget!));
    return missed.map((element) => `${element.tagName.toLowerCase()} "${(element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 60)}"`);
  }, [...reached]);
}

let sandboxId: string;

test.beforeAll(async ({ request }) => {
  const created = await request.post("/api/v1/sandboxes", { data: { name: `keys-${Date.now().toString(36)}`, disruptionPolicy: { evictionProtection: true } } });
  sandboxId = ((await created.json()) as { id: string }).id;
  await expect.poll(async () => ((await (await request.get(`/api/v1/sandboxes/${sandboxId}`)).json()) as { phase: string }).phase, { timeout: 30_000 }).toBe("Ready");
});

for (const pathname of PAGES) {
  test(`every control on ${pathname} is reachable with Tab`, async ({ page }) => {
    await page.goto(pathname);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await missedByTab(page)).toEqual([]);
  });
}

test("every action on a sandbox's page is reachable with Tab", async ({ page }) => {
  await page.goto(`/sandboxes/${sandboxId}`);
  await expect(page.getByRole("button", { name: "Checkpoint", exact: true })).toBeEnabled();
  expect(await missedByTab(page)).toEqual([]);
});

test("a drain preview's controls are reachable with Tab once it is open", async ({ page, request }) => {
  const { nodeName } = (await (await request.get(`/api/v1/sandboxes/${sandboxId}`)).json()) as { nodeName: string };
  await page.goto("/nodes");
  const card = page.getByRole("region", { name: nodeName, exact: true });
  await card.getByRole("button", { name: "Preview a drain" }).click();
  await expect(card.getByRole("button", { name: "Start maintenance…" })).toBeVisible();
  expect(await missedByTab(page)).toEqual([]);
});

// Carrying actions out, not only reaching them: Tab to the control, then Enter or Space.

async function readySandbox(request: APIRequestContext, name: string): Promise<{ id: string; name: string }> {
  const created = await request.post("/api/v1/sandboxes", { data: { name } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await expect.poll(async () => ((await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as { phase: string }).phase, { timeout: 30_000 }).toBe("Ready");
  return { id, name };
}

/** Presses Tab from the top of the page until the control has the focus. */
async function tabTo(page: Page, control: Locator) {
  await expect(control).toBeEnabled();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let press = 0; press < 60; press++) {
    await page.keyboard.press("Tab");
    if (await control.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${control}`);
}

test("Checkpoint on a sandbox's page is carried out with the keyboard alone", async ({ page, request }) => {
  const sandbox = await readySandbox(request, `keys-checkpoint-${Date.now().toString(36)}`);
  await page.goto(`/sandboxes/${sandbox.id}`);
  await tabTo(page, page.getByRole("button", { name: "Checkpoint", exact: true }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("region", { name: "Status" })).toContainText("Checkpoint Succeeded");
  await expect(page.getByRole("table", { name: "Checkpoints" }).getByRole("row").filter({ hasText: "Manual" })).toContainText("Succeeded");
});

test("the delete confirmation opens with Space, takes the focus, and Escape cancels it, giving the focus back", async ({ page, request }) => {
  const sandbox = await readySandbox(request, `keys-escape-${Date.now().toString(36)}`);
  await page.goto(`/sandboxes/${sandbox.id}`);
  const remove = page.getByRole("button", { name: "Delete", exact: true });
  await tabTo(page, remove);
  await page.keyboard.press("Space");
  const dialog = page.getByRole("alertdialog", { name: `Delete sandbox ${sandbox.name}?` });
  await expect(dialog.getByRole("button", { name: "Cancel", exact: true })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();
  await expect(page.getByRole("region", { name: "Status" }).getByText("Ready", { exact: true })).toBeVisible();
});

test("Delete, confirmed with the keyboard alone, deletes the sandbox and returns to the Sandboxes list", async ({ page, request }) => {
  const sandbox = await readySandbox(request, `keys-delete-${Date.now().toString(36)}`);
  await page.goto(`/sandboxes/${sandbox.id}`);
  await tabTo(page, page.getByRole("button", { name: "Delete", exact: true }));
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog", { name: `Delete sandbox ${sandbox.name}?` });
  await expect(dialog.getByRole("button", { name: "Cancel", exact: true })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: `Delete ${sandbox.name}` })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/sandboxes$/);
  await expect(page.getByRole("rowheader", { name: sandbox.name })).toHaveCount(0);
});
