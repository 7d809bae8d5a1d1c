import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// The Settings page's journeys: change a gateway default, see it in effect and in the history,
// and have the next sandbox get it; a value the rules refuse stays on screen with its error.
// Other flow files run on this server afterwards, so every change is handed back to the
// configuration at the end.

const EDITABLE = ["workspaceBackend", "workspaceDefaultStorageSize", "workspaceStorageClass", "sandboxNamespace"];

async function resetAll(request: APIRequestContext) {
  expect((await request.put("/api/v1/settings", { data: { reset: EDITABLE } })).status()).toBe(200);
}

test.beforeEach(({ request }) => resetAll(request));
test.afterEach(({ request }) => resetAll(request));

const rowOf = (page: import("@playwright/test").Page, helm: string) => page.getByRole("term").filter({ hasText: helm }).locator("xpath=..");

test("a default changed on the page is in effect, in the history, and what the next sandbox gets", async ({ page, request }) => {
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Change the defaults" });
  await form.getByRole("textbox", { name: "Default storage size" }).fill("5Gi");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByRole("status")).toHaveText(/Saved/);

  const row = rowOf(page, "server.workspaceDefaultStorageSize");
  await expect(row.getByRole("definition").filter({ hasText: "Value: 5Gi" })).toHaveCount(1);
  await expect(row.getByRole("definition").filter({ hasText: "Set by: Changed through Berth" })).toHaveCount(1);
  const history = page.getByRole("list", { name: "Changes to the gateway defaults" });
  await expect(history.getByRole("listitem").first()).toContainText("paula@berth.example changed");
  await expect(history.getByRole("listitem").first()).toContainText("Default storage size: 2Gi → 5Gi");

  const dryRun = await request.post("/api/v1/sandboxes?dryRun=true", { data: { name: `settings-${Date.now().toString(36)}` } });
  const { manifests } = (await dryRun.json()) as { manifests: { sandbox: { spec: { volumeClaimTemplates: { spec: { resources: { requests: { storage: string } } } }[] } } } };
  expect(manifests.sandbox.spec.volumeClaimTemplates[0]?.spec.resources.requests.storage).toBe("5Gi");

  // Hand it back to the configuration from the page, by keyboard.
  await form.getByRole("button", { name: "Reset default storage size to the configuration" }).focus();
  await page.keyboard.press("Enter");
  await expect(row.getByRole("definition").filter({ hasText: "Set by: Default" })).toHaveCount(1);
  await expect(row.getByRole("definition").filter({ hasText: "Value: 2Gi" })).toHaveCount(1);
  await expect(form.getByRole("textbox", { name: "Default storage size" })).toHaveValue("2Gi");
  await expect(history.getByRole("listitem").first()).toContainText("reset to the configuration");
});

test("the storage class has three choices: the cluster default, no class, or a named class", async ({ page }) => {
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Change the defaults" });
  const row = rowOf(page, "server.workspaceStorageClass");
  await expect(form.getByRole("radio", { name: "Cluster default" })).toBeChecked();

  await form.getByRole("radio", { name: "Named class" }).check();
  await form.getByRole("textbox", { name: "Storage class name" }).fill("portable");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(row.getByRole("definition").filter({ hasText: "Value: portable" })).toHaveCount(1);

  await form.getByRole("radio", { name: "No class" }).check();
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(row.getByRole("definition").filter({ hasText: "Value: no class" })).toHaveCount(1);
  await expect(page.getByRole("list", { name: "Changes to the gateway defaults" }).getByRole("listitem").first()).toContainText("Storage class: portable → no class");
});

test("an invalid value shows the field's error and keeps what was typed; nothing is saved", async ({ page, request }) => {
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Change the defaults" });
  const size = form.getByRole("textbox", { name: "Default storage size" });
  await size.fill("lots");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(size).toHaveAttribute("aria-invalid", "true");
  await expect(size).toHaveAccessibleDescription(/must be a positive Kubernetes quantity/);
  await expect(size).toHaveValue("lots");
  await expect(size).toBeFocused();
  const { items } = (await (await request.get("/api/v1/settings")).json()) as { items: { key: string; value: string; source: string }[] };
  expect(items.find((item) => item.key === "workspaceDefaultStorageSize")).toMatchObject({ value: "2Gi", source: "default" });
});

test("a refusal from the server lands on the field it names, and what was typed stays", async ({ page, browserErrors }) => {
  // No rule is the server's alone (both sides use one schema), so the answer is staged: as the
  // server would word one that the browser could not know, such as a change racing another.
  await page.route("**/api/v1/settings", (route) =>
    route.request().method() === "PUT"
      ? route.fulfill({
          status: 400,
          contentType: "application/problem+json",
          body: JSON.stringify({ type: "https://berth.dev/problems/invalid-request", title: "The request is not valid", status: 400, detail: "Correct the fields listed in errors and send it again.", code: "invalid-request", errors: [{ field: "sandboxNamespace", code: "custom", message: "sandboxNamespace agents is refused by the server" }] }),
        })
      : route.continue(),
  );
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Change the defaults" });
  const namespace = form.getByRole("textbox", { name: "Sandbox namespace" });
  await namespace.fill("agents");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(namespace).toHaveAccessibleDescription(/agents is refused by the server/);
  await expect(namespace).toHaveValue("agents");
  await expect(namespace).toBeFocused();
  // The browser logs the staged 400, as it should; nothing else may be logged.
  browserErrors.splice(0, browserErrors.length, ...browserErrors.filter((error) => !error.includes("status of 400")));
});

test("PUT /api/v1/settings refuses an invalid value with problem+json naming the field and what is allowed", async ({ request }) => {
  const response = await request.put("/api/v1/settings", { data: { workspaceBackend: "nfs", labelPrefix: "example.com" } });
  const body = (await response.json()) as { code: string; errors: { field: string; message: string }[] };
  expect([response.status(), response.headers()["content-type"], body.code]).toEqual([400, "application/problem+json", "invalid-request"]);
  expect(body.errors).toEqual([
    { field: "workspaceBackend", code: "invalid_value", message: "workspace backend must be one of: pvc, ephemeral. Allowed: pvc or ephemeral" },
    { field: "labelPrefix", code: "invalid_type", message: expect.stringContaining("set by configuration only") },
  ]);
});
