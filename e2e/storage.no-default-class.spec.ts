import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// A cluster with no default StorageClass (BERTH_SIM_DEFAULT_STORAGE_CLASS=none): a workspace
// claim that names no class never binds there. The form says so before anything is made, and
// a sandbox made anyway says, on its page, what it waits for in Kubernetes' own words.

const form = (page: Page) => page.getByRole("form", { name: "Create sandbox" });
const NO_DEFAULT = /no default StorageClass, so a claim without a class stays Pending/;

test("the form warns that a claim on the cluster's default class would stay Pending, and how to avoid it", async ({ page }) => {
  await page.goto("/sandboxes/new");
  await expect(form(page).getByText(NO_DEFAULT)).toContainText("Pick a class below, or use an ephemeral workspace");
});

test("the warning goes once a class is picked", async ({ page }) => {
  await page.goto("/sandboxes/new");
  await expect(form(page).getByText(NO_DEFAULT)).toBeVisible();
  await form(page).getByRole("radio", { name: "A class of this cluster" }).check();
  await form(page).getByLabel("Class", { exact: true }).selectOption("portable");
  await expect(form(page).getByText(NO_DEFAULT)).toHaveCount(0);
});

test("the warning goes with an ephemeral workspace", async ({ page }) => {
  await page.goto("/sandboxes/new");
  await expect(form(page).getByText(NO_DEFAULT)).toBeVisible();
  await form(page).getByRole("radio", { name: /Ephemeral/ }).check();
  await expect(form(page).getByText(NO_DEFAULT)).toHaveCount(0);
});

test("a sandbox made on the default class anyway says its claim is Pending, and why", async ({ page, request }) => {
  const created = await request.post("/api/v1/sandboxes", { data: { name: `classless-${Date.now().toString(36)}` } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/sandboxes/${id}`);
  await expect(page.getByRole("main")).toContainText("no persistent volumes available for this claim and no storage class is set", { timeout: 30_000 });
});

test("the Volumes page shows a claim on the default class as Pending, with the binder's reason", async ({ page, request }) => {
  const name = `unbound-${Date.now().toString(36)}`;
  expect((await request.post("/api/v1/sandboxes", { data: { name } })).status()).toBe(201);
  await page.goto("/volumes");
  const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^workspace-${name}\\b`) }) });
  // Cells: sandbox, ownership, binding, class, size, node pinning, state, actions.
  await expect(row.getByRole("cell").nth(2)).toHaveText(/^Pending\s*no persistent volumes available for this claim and no storage class is set/, { timeout: 30_000 });
});
