import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// The Templates page: a platform admin creates a template with a warm pool in the form, watches
// the pool fill (there, on the Sandboxes page and on the Nodes page), resizes it and deletes the
// template; a developer takes a sandbox from a pool and its timeline says it came warm; the form refuses what a template cannot
// hold on the field; a developer sees the templates of their namespace and may change none, and
// their edit page says why, with no form.

let counter = 0;
const uniqueName = (what: string) => `${what}-${Date.now().toString(36)}-${++counter}`;

const rowOf = (page: Page, template: string) => page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${template}\\b`) }) });

test("a platform admin creates a pooled template, sees its pool fill, resizes it and deletes it", async ({ page }) => {
  const name = uniqueName("py");
  await page.goto("/templates");
  await page.getByRole("link", { name: "Create template" }).click();
  const form = page.getByRole("form", { name: "Create template" });
  await form.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await form.getByRole("textbox", { name: "Description" }).fill("Python agents, ephemeral");
  await form.getByRole("textbox", { name: "Warm pool size" }).fill("2");
  await form.getByRole("radio", { name: /^Ephemeral/ }).check();
  await form.getByRole("button", { name: "Create template" }).click();

  await expect(page).toHaveURL(/\/templates$/);
  const row = rowOf(page, name);
  await expect(row.getByRole("rowheader")).toContainText("Python agents, ephemeral");
  await expect(row.getByRole("cell").nth(1)).toHaveText("ephemeral (emptyDir)");
  await expect(row.getByText("2 of 2 ready")).toBeVisible({ timeout: 30_000 });

  // The pool on the Sandboxes page, its members among the sandboxes and on their nodes.
  await page.goto("/sandboxes");
  await expect(page.getByRole("listitem", { name: `Warm pool default/${name}` })).toContainText("2 of 2 ready");
  await expect(page.getByRole("rowheader").filter({ hasText: `waiting in warm pool ${name}` })).toHaveCount(2);
  await page.goto("/nodes");
  await expect(page.getByText(`waiting in warm pool ${name}`)).toHaveCount(2);
  await page.goto("/templates");

  await row.getByRole("button", { name: `Warm pool of ${name}` }).click();
  const poolDialog = page.getByRole("dialog", { name: `Warm pool of ${name}` });
  await poolDialog.getByRole("textbox", { name: /Pool size/ }).fill("1");
  await poolDialog.getByRole("button", { name: "Save pool" }).click();
  await expect(poolDialog).toBeHidden();
  await expect(row.getByText("1 of 1 ready")).toBeVisible({ timeout: 30_000 });

  await row.getByRole("button", { name: `Delete ${name}` }).click();
  const deleteDialog = page.getByRole("alertdialog", { name: `Delete template ${name}?` });
  await expect(deleteDialog).toContainText("Its warm pool goes with it");
  const confirm = deleteDialog.getByRole("button", { name: "Delete template" });
  await expect(confirm).toBeDisabled();
  await deleteDialog.getByRole("textbox", { name: `Type ${name} to confirm` }).fill(name);
  await confirm.click();
  await expect(deleteDialog).toBeHidden();
  await expect(row).toHaveCount(0);
});

test("a platform admin edits a template in the form it was made with, its name fixed", async ({ page, request }) => {
  const name = uniqueName("edit");
  const created = await request.post("/api/v1/templates", { data: { name, description: "first", sandbox: { workspace: { backend: "ephemeral" }, disruptionPolicy: { terminationGracePeriodSeconds: 45 } } } });
  expect(created.status(), await created.text()).toBe(201);
  try {
    await page.goto("/templates");
    await rowOf(page, name).getByRole("link", { name: `Edit ${name}` }).click();
    const form = page.getByRole("form", { name: "Save template" });
    await expect(form.getByRole("textbox", { name: "Name", exact: true })).toHaveValue(name);
    await expect(form.getByRole("textbox", { name: "Name", exact: true })).not.toBeEditable();
    await expect(form.getByRole("textbox", { name: "Termination grace (seconds)" })).toHaveValue("45");
    await form.getByRole("textbox", { name: "Description" }).fill("second");
    await form.getByRole("textbox", { name: "Termination grace (seconds)" }).fill("90");
    await form.getByRole("button", { name: "Save template" }).click();
    await expect(page).toHaveURL(/\/templates$/);
    await expect(rowOf(page, name).getByRole("rowheader")).toContainText("second");
    const saved = (await (await request.get(`/api/v1/templates/default/${name}`)).json()) as { spec: { sandbox: { disruptionPolicy: { terminationGracePeriodSeconds: number } } } };
    expect(saved.spec.sandbox.disruptionPolicy.terminationGracePeriodSeconds).toBe(90);
  } finally {
    await request.delete(`/api/v1/templates/default/${name}`);
  }
});

test("the form refuses a retained workspace in a template on its field, keeping what was typed", async ({ page }) => {
  const name = uniqueName("shared");
  await page.goto("/templates/new");
  const form = page.getByRole("form", { name: "Create template" });
  await form.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await form.getByRole("radio", { name: /^Retained/ }).check();
  await form.getByRole("button", { name: "Create template" }).click();
  await expect(form.getByRole("group", { name: "Claim ownership" })).toContainText("names one claim they would all share");
  await expect(form.getByRole("textbox", { name: "Name", exact: true })).toHaveValue(name);
  await expect(page).toHaveURL(/\/templates\/new$/);
});

test("a developer sees their namespace's templates and may change none of them", async ({ request, signedInAs }) => {
  const name = uniqueName("team");
  const created = await request.post("/api/v1/templates", { data: { name, namespace: "team-a", sandbox: { workspace: { backend: "ephemeral" } } } });
  expect(created.status(), await created.text()).toBe(201);
  try {
    const alex = await signedInAs("alex");
    await alex.page.goto("/templates");
    const row = rowOf(alex.page, name);
    await expect(row).toBeVisible();
    await expect(row.getByRole("button")).toHaveCount(0);
    await expect(alex.page.getByText("You may not create templates: you need berth-platform-admin.")).toBeVisible();
    const refused = await alex.request.delete(`/api/v1/templates/team-a/${name}`);
    expect(refused.status()).toBe(403);

    const bea = await signedInAs("bea");
    await bea.page.goto("/templates");
    await expect(bea.page.getByRole("heading", { level: 1, name: "Templates" })).toBeVisible();
    await expect(rowOf(bea.page, name)).toHaveCount(0);
  } finally {
    await request.delete(`/api/v1/templates/team-a/${name}`);
  }
});

test("a developer who opens a template's edit page is told why they may not change it, with no form", async ({ request, signedInAs }) => {
  const name = uniqueName("locked");
  const created = await request.post("/api/v1/templates", { data: { name, namespace: "team-a", sandbox: { workspace: { backend: "ephemeral" } } } });
  expect(created.status(), await created.text()).toBe(201);
  try {
    const alex = await signedInAs("alex");
    await alex.page.goto(`/templates/team-a/${name}`);
    await expect(alex.page.getByRole("heading", { name: "Kubernetes does not let you change templates here" })).toBeVisible();
    await expect(alex.page.getByRole("form")).toHaveCount(0);
  } finally {
    await request.delete(`/api/v1/templates/team-a/${name}`);
  }
});

test("a developer gets a sandbox from a template's warm pool, and its timeline says it came warm", async ({ request, signedInAs }) => {
  const template = uniqueName("warm");
  const created = await request.post("/api/v1/templates", { data: { name: template, namespace: "team-a", sandbox: { workspace: { backend: "ephemeral" } }, warmPool: { replicas: 1 } } });
  expect(created.status(), await created.text()).toBe(201);
  const claim = uniqueName("mine");
  let sandboxId: string | undefined;
  try {
    const alex = await signedInAs("alex");
    await alex.page.goto("/templates");
    const row = rowOf(alex.page, template);
    await expect(row.getByText("1 of 1 ready")).toBeVisible({ timeout: 30_000 });
    await row.getByRole("button", { name: `New sandbox from ${template}` }).click();
    const dialog = alex.page.getByRole("dialog", { name: `New sandbox from ${template}` });
    await expect(dialog).toContainText("yours starts in a second");
    await dialog.getByRole("textbox", { name: "Name" }).fill(claim);
    await dialog.getByRole("button", { name: "Create sandbox" }).click();
    await expect(alex.page).toHaveURL(/\/sandboxes\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    sandboxId = alex.page.url().split("/").at(-1);
    await expect(alex.page.getByText(new RegExp(`Handed to claim ${claim} from warm pool ${template}: a warm start`))).toBeVisible({ timeout: 30_000 });
    await expect(alex.page.getByText("a warm start: handed over from the template's warm pool, already running")).toBeVisible();
  } finally {
    // Its claim goes with it.
    if (sandboxId) await request.delete(`/api/v1/sandboxes/${sandboxId}`);
    await request.delete(`/api/v1/templates/team-a/${template}`);
  }
});
