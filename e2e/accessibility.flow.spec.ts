import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, forgiveRefusedRequests, test } from "./fixtures.ts";

// Every page of the console through axe (WCAG 2.1 A and AA rules): no serious or critical
// violation. Runs with sandboxes present, so tables, cards and timelines are checked with data.

const PAGES = ["/sandboxes", "/sandboxes/new", "/templates", "/templates/new", "/volumes", "/volumes/new", "/volumes/clean-up", "/nodes", "/settings", "/audit", "/simulator"];

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

let sandboxId: string;

test.beforeAll(async ({ request }) => {
  const created = await request.post("/api/v1/sandboxes", { data: { name: `a11y-${Date.now().toString(36)}`, disruptionPolicy: { evictionProtection: true } } });
  sandboxId = ((await created.json()) as { id: string }).id;
  await expect.poll(async () => ((await (await request.get(`/api/v1/sandboxes/${sandboxId}`)).json()) as { phase: string }).phase, { timeout: 30_000 }).toBe("Ready");
});

for (const pathname of PAGES) {
  test(`${pathname} has no serious accessibility violations`, async ({ page }) => {
    await page.goto(pathname);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test("a sandbox's page has no serious accessibility violations", async ({ page }) => {
  await page.goto(`/sandboxes/${sandboxId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("the page for an unknown sandbox has no serious accessibility violations", async ({ page, browserErrors }) => {
  await page.goto("/sandboxes/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { level: 1, name: "No such sandbox" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // The page answers 404, and the browser logs that itself.
  forgiveRefusedRequests(browserErrors, 404);
});

test("a sandbox's delete confirmation has no serious accessibility violations", async ({ page }) => {
  await page.goto(`/sandboxes/${sandboxId}`);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("the drain preview and the maintenance confirmation have no serious accessibility violations", async ({ page, request }) => {
  const { nodeName } = (await (await request.get(`/api/v1/sandboxes/${sandboxId}`)).json()) as { nodeName: string };
  await page.goto("/nodes");
  const card = page.getByRole("region", { name: nodeName, exact: true });
  await card.getByRole("button", { name: "Preview a drain" }).click();
  await card.getByRole("button", { name: "Start maintenance…" }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

