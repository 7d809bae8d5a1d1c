import type { Page } from "@playwright/test";
import { expect, forgiveRefusedRequests, test } from "./fixtures.ts";

// The create form in the browser: the shared schema's messages on the fields, the server's
// refusals on the right field, the dry-run preview, the storage warnings, and a create.

let counter = 0;
const uniqueName = (prefix = "form") => `${prefix}-${Date.now().toString(36)}-${++counter}`;

const form = (page: Page) => page.getByRole("form", { name: "Create sandbox" });
const field = (page: Page, label: string) => form(page).getByLabel(label, { exact: true });

async function openForm(page: Page, query = "") {
  await page.goto(`/sandboxes/new${query}`);
  await expect(page.getByRole("heading", { level: 1, name: "Create sandbox" })).toBeVisible();
}

test("the Sandboxes page links to the create form", async ({ page }) => {
  await page.goto("/sandboxes");
  await page.getByRole("link", { name: "Create sandbox" }).click();
  await expect(page).toHaveURL(/\/sandboxes\/new$/);
});

test("invalid input shows the schema's messages on their fields and keeps what was typed", async ({ page }) => {
  await openForm(page);
  await field(page, "Name").fill("Not_A_Name");
  await field(page, "Checkpoint grace (seconds)").fill("60");
  await form(page).getByRole("button", { name: "Create sandbox" }).click();

  await expect(field(page, "Name")).toHaveAccessibleDescription(/lower case letters, digits and '-'/);
  await expect(field(page, "Checkpoint grace (seconds)")).toHaveAccessibleDescription(/must be shorter than terminationGracePeriodSeconds/);
  await expect(field(page, "Name")).toHaveValue("Not_A_Name");
});

test("the form names this gateway's limits and refuses more before anything is sent", async ({ page }) => {
  const creates: string[] = [];
  page.on("request", (sent) => {
    if (sent.method() === "POST" && new URL(sent.url()).pathname === "/api/v1/sandboxes") creates.push(sent.url());
  });
  await openForm(page);
  await expect(form(page).getByRole("group", { name: "Resources" })).toHaveAccessibleDescription("This gateway allows at most 16 CPU and 64Gi of memory, as request or limit.");
  await field(page, "Name").fill(uniqueName("limits"));
  await field(page, "CPU limit").fill("100000");
  await field(page, "Termination grace (seconds)").fill("7200");
  await form(page).getByRole("button", { name: "Create sandbox" }).click();

  await expect(field(page, "CPU limit")).toHaveAccessibleDescription(/100000 is more than this gateway allows \(16\)/);
  await expect(field(page, "Termination grace (seconds)")).toHaveAccessibleDescription(/At most 3600 on this gateway.*longer than this gateway allows \(3600 s\)/);
  expect(creates).toEqual([]);
});

test("a name the server says is taken lands on the name field, the rest kept", async ({ page, request, browserErrors }) => {
  const name = uniqueName("taken");
  expect((await request.post("/api/v1/sandboxes", { data: { name, workspace: { backend: "ephemeral" } } })).status()).toBe(201);
  await openForm(page);
  await field(page, "Name").fill(name);
  await field(page, "Image").fill("ghcr.io/example/agent:2.0");
  await form(page).getByRole("button", { name: "Create sandbox" }).click();

  await expect(field(page, "Name")).toHaveAccessibleDescription(new RegExp(`${name}.*(taken|exists)`));
  await expect(form(page).getByRole("alert")).toContainText("The name is taken");
  await expect(field(page, "Image")).toHaveValue("ghcr.io/example/agent:2.0");
  forgiveRefusedRequests(browserErrors, 409);
});

test("an existing claim the cluster does not have is refused on the claim field", async ({ page, browserErrors }) => {
  await openForm(page);
  await field(page, "Name").fill(uniqueName("byo"));
  await form(page).getByRole("radio", { name: /Existing claim/ }).check();
  await field(page, "Existing claim").fill("no-such-claim");
  await form(page).getByRole("button", { name: "Create sandbox" }).click();

  await expect(field(page, "Existing claim")).toHaveAccessibleDescription(/no-such-claim/);
  forgiveRefusedRequests(browserErrors, 400, 409);
});

test("the preview shows the manifests the server's dry run accepted, and creates nothing", async ({ page, request }) => {
  const name = uniqueName("preview");
  await openForm(page);
  await field(page, "Name").fill(name);
  await form(page).getByRole("radio", { name: /Retained/ }).check();
  await form(page).getByRole("button", { name: "Preview manifests" }).click();

  const manifests = page.getByRole("tablist", { name: "Manifests" });
  await expect(manifests.getByRole("tab", { name: `Sandbox ${name}` })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel")).toContainText("kind: Sandbox");
  await manifests.getByRole("tab", { name: `Claim workspace-${name}` }).click();
  await expect(page.getByRole("tabpanel")).toContainText("kind: PersistentVolumeClaim");
  const listed = (await (await request.get("/api/v1/sandboxes?limit=500")).json()) as { items: { name: string }[] };
  expect(listed.items.map((item) => item.name)).not.toContain(name);
});

test("the storage warnings follow the choices: node-pinned default, portable class, ephemeral", async ({ page }) => {
  await openForm(page);
  const advice = form(page).getByText(/keeps the volume on one node|loses everything in it/);
  await expect(advice).toContainText("local-path keeps the volume on one node");

  await form(page).getByRole("radio", { name: "A class of this cluster" }).check();
  await field(page, "Class").selectOption("portable");
  await expect(advice).toHaveCount(0);

  await form(page).getByRole("radio", { name: /Ephemeral/ }).check();
  await expect(advice).toContainText("loses everything in it");
});

test("a claim named in the address starts the form as that existing claim", async ({ page }) => {
  await openForm(page, "?claim=default/workspace-kept");
  await expect(form(page).getByRole("radio", { name: /Existing claim/ })).toBeChecked();
  await expect(field(page, "Existing claim")).toHaveValue("workspace-kept");
});

test("a sandbox created from the form opens its page and becomes Ready", async ({ page, request }) => {
  const name = uniqueName("created");
  await openForm(page);
  await field(page, "Name").fill(name);
  await form(page).getByRole("radio", { name: "A class of this cluster" }).check();
  await field(page, "Class").selectOption("portable");
  await form(page).getByRole("button", { name: "Create sandbox" }).click();

  await expect(page).toHaveURL(/\/sandboxes\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop()!;
  await expect.poll(async () => ((await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as { phase: string }).phase, { timeout: 30_000 }).toBe("Ready");
});

test("labels typed in the form are on the sandbox's page", async ({ page }) => {
  await openForm(page);
  await field(page, "Name").fill(uniqueName("labelled"));
  await form(page).getByRole("radio", { name: /Ephemeral/ }).check();
  await field(page, "Labels").fill("team=ml\nexample.com/owner=dana");
  await form(page).getByRole("button", { name: "Create sandbox" }).click();

  await expect(page.getByRole("definition").filter({ hasText: "team=ml" })).toContainText("example.com/owner=dana");
});

test("a label key in a domain Kubernetes keeps is refused on the labels field", async ({ page }) => {
  await openForm(page);
  await field(page, "Name").fill(uniqueName("reserved"));
  await field(page, "Labels").fill("kubernetes.io/team=ml");
  await form(page).getByRole("button", { name: "Create sandbox" }).click();

  await expect(field(page, "Labels")).toHaveAccessibleDescription(/in a domain Kubernetes keeps for itself/);
});

test("the form can be filled and sent with the keyboard alone", async ({ page }) => {
  const name = uniqueName("keys");
  await openForm(page);
  // The controls are disabled until React runs the form; focus lands nowhere before that.
  await expect(field(page, "Name")).toBeEnabled();
  await field(page, "Name").focus();
  await page.keyboard.type(name);
  await expect(field(page, "Name")).toHaveValue(name);
  // Tab to the storage class choice, then arrow keys move within the radio group.
  const clusterDefault = form(page).getByRole("radio", { name: /^Cluster default/ });
  await tabUntilFocused(page, clusterDefault);
  await page.keyboard.press("ArrowDown");
  await expect(form(page).getByRole("radio", { name: "No class" })).toBeChecked();
  await page.keyboard.press("ArrowUp");
  await expect(clusterDefault).toBeChecked();

  await tabUntilFocused(page, form(page).getByRole("button", { name: "Create sandbox" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/sandboxes\/[0-9a-f-]{36}$/);
});

/** Presses Tab until the element has focus; fails if it is not reached within a page's worth of stops. */
async function tabUntilFocused(page: Page, target: ReturnType<Page["locator"]>) {
  for (let stops = 0; stops < 80; stops++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("not reachable with Tab");
}
