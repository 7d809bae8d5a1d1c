import { expect, test } from "./fixtures.ts";

// The audit log as people read it: the platform admin sees every change asked for through Berth —
// refused ones included — with the person Berth verified, and filters it; a developer is told
// the log is not theirs to read; a sandbox's page says who did what to it.

let counter = 0;
const uniqueName = (what: string) => `${what}-${Date.now().toString(36)}-${++counter}`;

test("the platform admin sees a developer's refused create, with who, their groups and the decision", async ({ page, signedInAs }) => {
  const alex = await signedInAs("alex");
  const name = uniqueName("intruder");
  expect((await alex.request.post("/api/v1/sandboxes", { data: { name, namespace: "team-b" } })).status()).toBe(403);

  await page.goto("/audit");
  const row = page.getByRole("row").filter({ hasText: `team-b/${name}` });
  await expect(row).toContainText("alex@berth.example");
  await expect(row).toContainText("oidc:team-a");
  await expect(row).toContainText("sandbox.create");
  await expect(row).toContainText("Denied");
});

test("the platform admin filters the log by who and by decision, and the address keeps the filters", async ({ page, signedInAs }) => {
  const bea = await signedInAs("bea");
  const name = uniqueName("filtered");
  expect((await bea.request.post("/api/v1/sandboxes", { data: { name, namespace: "team-a" } })).status()).toBe(403);

  await page.goto("/audit");
  await page.getByLabel("Who").fill("bea@berth.example");
  await page.getByLabel("Decision").selectOption("Denied");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/actor=bea%40berth.example/);
  await expect(page.getByRole("row").filter({ hasText: `team-a/${name}` })).toBeVisible();
  await expect(page.getByRole("table", { name: "Audit log" }).getByRole("cell", { name: "paula@berth.example" })).toHaveCount(0);
});

test("a filter that is not valid is named, and nothing is shown until it is fixed", async ({ page }) => {
  await page.goto("/audit?since=yesterday");
  await expect(page.getByText("since must be an RFC 3339 time")).toBeVisible();
  await expect(page.getByRole("table", { name: "Audit log" })).toHaveCount(0);
});

test("a developer opening the audit log is told it is the platform admin's", async ({ signedInAs }) => {
  const { page } = await signedInAs("alex");
  await page.goto("/audit");
  await expect(page.getByRole("heading", { name: "Kubernetes does not let you read the audit log" })).toBeVisible();
  await expect(page.getByText("You need berth-platform-admin.")).toBeVisible();
});

test("a sandbox's page says who made it and who was refused a change", async ({ signedInAs }) => {
  const alex = await signedInAs("alex");
  const victor = await signedInAs("victor");
  const created = await alex.request.post("/api/v1/sandboxes", { data: { name: uniqueName("history"), namespace: "team-a" } });
  const { id } = (await created.json()) as { id: string };
  expect((await victor.request.post(`/api/v1/sandboxes/${id}/stop`)).status()).toBe(403);

  await alex.page.goto(`/sandboxes/${id}`);
  const changes = alex.page.getByRole("list", { name: "Changes to this sandbox" });
  await expect(changes.getByRole("listitem").filter({ hasText: "sandbox.create" })).toContainText("alex@berth.example");
  await expect(changes.getByRole("listitem").filter({ hasText: "sandbox.stop" })).toContainText("victor@berth.example");
  await expect(changes.getByRole("listitem").filter({ hasText: "sandbox.stop" })).toContainText("Refused");
});
