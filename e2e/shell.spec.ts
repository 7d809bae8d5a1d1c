import { expect, test } from "./fixtures.ts";
import { cookieHeaderOf } from "./signed-in.ts";

const SECTIONS = [
  { name: "Sandboxes", path: "/sandboxes" },
  { name: "Templates", path: "/templates" },
  { name: "Volumes", path: "/volumes" },
  { name: "Nodes", path: "/nodes" },
  { name: "Settings", path: "/settings" },
] as const;

const GATEWAY_DEFAULTS = [
  { helm: "server.workspaceBackend", value: "pvc" },
  { helm: "server.workspaceDefaultStorageSize", value: "2Gi" },
  { helm: "server.workspaceStorageClass", value: "cluster default" },
  { helm: "server.workspaceMountPath", value: "/sandbox" },
  { helm: "server.sandboxNamespace", value: "default" },
  { helm: "server.labelPrefix", value: "berth.dev" },
] as const;

test("the shell renders its header, navigation, main region and store status", async ({ page, request }) => {
  await page.goto("/sandboxes");

  const banner = page.getByRole("banner");
  await expect(banner.getByRole("link", { name: "Berth" })).toBeVisible();

  const nav = page.getByRole("navigation", { name: "Console" });
  for (const section of SECTIONS) {
    await expect(nav.getByRole("link", { name: section.name })).toBeVisible();
  }
  await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Sandboxes" })).toBeVisible();

  // The header's store badge tells the same story as the health endpoint.
  const health = (await (await request.get("/api/health")).json()) as { store: { kind: string } };
  const storeBadge = banner.getByRole("list", { name: "System status" }).getByRole("listitem").filter({ hasText: "Store" });
  await expect(storeBadge).toContainText(health.store.kind === "postgresql" ? "PostgreSQL" : "PGlite");
});

test("/ redirects to /sandboxes", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sandboxes$/);
  await expect(page).toHaveTitle("Sandboxes · Berth");
  await expect(page.getByRole("heading", { level: 1, name: "Sandboxes" })).toBeVisible();
});

test("each navigation link opens its page and is marked as the current page", async ({ page }) => {
  await page.goto("/settings");
  const nav = page.getByRole("navigation", { name: "Console" });

  for (const section of SECTIONS) {
    await nav.getByRole("link", { name: section.name }).click();
    await expect(page).toHaveURL(new RegExp(`${section.path}$`));
    await expect(page).toHaveTitle(`${section.name} · Berth`);
    await expect(page.getByRole("main").getByRole("heading", { level: 1, name: section.name })).toBeVisible();
    for (const other of SECTIONS) {
      const link = nav.getByRole("link", { name: other.name });
      if (other === section) await expect(link).toHaveAttribute("aria-current", "page");
      else await expect(link).not.toHaveAttribute("aria-current");
    }
  }
});

test("a page that takes a while to come leaves the current one in place, its link marked as loading", async ({ page }) => {
  await page.goto("/sandboxes");
  await expect(page.getByRole("status").filter({ hasText: /^Live$/ })).toBeVisible();
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await page.route(
    (url) => url.pathname === "/volumes",
    async (route) => {
      await answered;
      await route.continue();
    },
  );
  const link = page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Volumes" });
  await link.click();

  await expect(link.locator("[data-pending]")).toBeVisible();
  await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Sandboxes" })).toBeVisible();
  answer();
  await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Volumes" })).toBeVisible();
  await expect(link.locator("[data-pending]")).toHaveCount(0);
});

test("the skip link is the first stop for the keyboard and moves focus to the main region", async ({ page }) => {
  await page.goto("/volumes");
  await page.keyboard.press("Tab");
  const skipLink = page.getByRole("link", { name: "Skip to content" });
  await expect(skipLink).toBeFocused();
  await expect(skipLink).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
});

test("Sandboxes shows an honest empty state on a fresh data directory", async ({ page }) => {
  await page.goto("/sandboxes");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 2, name: "No sandboxes yet" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Create one" })).toHaveAttribute("href", "/sandboxes/new");
  await expect(main.getByRole("table")).toHaveCount(0);
});

test("Nodes lists the embedded cluster's workers, each with its state", async ({ page }) => {
  await page.goto("/nodes");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 2, name: "worker-1" })).toBeVisible();
  await expect(main.getByRole("region", { name: "worker-1" })).toContainText("Ready");
});

test("Nodes previews what a drain would do, by keyboard", async ({ page }) => {
  await page.goto("/nodes");
  const worker = page.getByRole("main").getByRole("region", { name: "worker-1" });
  await worker.getByRole("button", { name: "Preview a drain" }).focus();
  await page.keyboard.press("Enter");
  await expect(worker.getByRole("table", { name: "What draining worker-1 would do" }).or(worker.getByText("Nothing runs on worker-1"))).toBeVisible();
});

test("Volumes shows an honest empty state on a fresh data directory", async ({ page }) => {
  await page.goto("/volumes");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 2, name: "No volume claims yet" })).toBeVisible();
  await expect(main.getByRole("table")).toHaveCount(0);
});

test("Settings lists the gateway defaults with their Helm value names and sources", async ({ page }) => {
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 2, name: "Gateway defaults" })).toBeVisible();
  await expect(page.getByRole("term")).toHaveCount(GATEWAY_DEFAULTS.length);

  for (const setting of GATEWAY_DEFAULTS) {
    const term = page.getByRole("term").filter({ hasText: setting.helm });
    await expect(term).toBeVisible();
    // The definitions that belong to this term sit beside it in the same row.
    const row = term.locator("xpath=..");
    await expect(row.getByRole("definition").filter({ hasText: `Value: ${setting.value}` })).toHaveCount(1);
    await expect(row.getByRole("definition").filter({ hasText: "Set by: Default" })).toHaveCount(1);
  }
});

test("GET /api/health answers 200 with cluster and store", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/json");
  const body: unknown = await response.json();
  expect(body).toEqual(
    expect.objectContaining({
      status: expect.any(String),
      cluster: expect.objectContaining({
        mode: expect.stringMatching(/^(embedded|kubeconfig|in-cluster)$/),
      }),
      store: expect.objectContaining({ kind: expect.stringMatching(/^(pglite|postgresql)$/) }),
    }),
  );
});

test("on embedded defaults, /api/health reports the embedded simulated cluster, its address and Sandbox API version", async ({ request }) => {
  const { cluster } = (await (await request.get("/api/health")).json()) as { cluster: Record<string, unknown> };
  expect(cluster).toMatchObject({ mode: "embedded", server: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), sandboxApiVersion: "v1beta1", connected: true });
});

// These create sandboxes, so they come after the tests of a fresh data directory.

/**
 * The start of a real event stream, then its end, as a dropped connection looks to the browser:
 * the server's replay of every stored event (lastEventId=0), read until it has sent one.
 */
async function openingOfStream(baseURL: string, cookie: string): Promise<string> {
  const abort = new AbortController();
  const response = await fetch(`${baseURL}/api/v1/events?lastEventId=0`, { signal: abort.signal, headers: { cookie } });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!(text.includes("event: timeline") && text.endsWith("\n\n"))) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  abort.abort();
  return text;
}

/** The browser's next connection to the stream waits until released: the stream is down meanwhile. */
function holdReconnection() {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  return { firstServed: false, released, release };
}

test.describe("the Sandboxes page, live", () => {
  test("shows that updates are live", async ({ page }) => {
    await page.goto("/sandboxes");
    await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
  });

  test("says plainly when live updates are down, and when they are back", async ({ page, browserErrors }) => {
    await page.route("**/api/v1/events", (route) => route.fulfill({ status: 503, body: "restarting" }));
    await page.goto("/sandboxes");
    await expect(page.getByRole("status").filter({ hasText: "interrupted" })).toBeVisible();
    await page.unroute("**/api/v1/events");
    await expect(page.getByRole("status").filter({ hasText: /^Live$/ })).toBeVisible({ timeout: 10_000 });
    // The refused stream is logged by the browser, as it should be; nothing else may be.
    const expected = (error: string) => error.includes("503") || error.includes("EventSource");
    browserErrors.splice(0, browserErrors.length, ...browserErrors.filter((error) => !expected(error)));
  });

  test("after its event stream ends, says it is interrupted, comes back Live resuming from the last event it had, and shows a sandbox created meanwhile without a reload", async ({ page, request, baseURL }, testInfo) => {
    // Something to replay, so the first connection has real events to deliver.
    expect((await request.post("/api/v1/sandboxes", { data: { name: `before-${Date.now().toString(36)}` } })).status()).toBe(201);
    const reconnect = holdReconnection();
    await page.route("**/api/v1/events*", async (route) => {
      if (!reconnect.firstServed) {
        reconnect.firstServed = true;
        await route.fulfill({ status: 200, contentType: "text/event-stream", body: await openingOfStream(baseURL!, cookieHeaderOf(testInfo.project.name, "paula")) });
      } else {
        await reconnect.released;
        await route.continue();
      }
    });
    // The ids of the timeline events the page's stream delivers. The Last-Event-ID header the
    // browser adds on reconnecting is set below what page.route sees, so the resume is judged by
    // what arrives: an event stored while the stream was down comes through the stream only if
    // the server was told where the page had got to.
    await page.addInitScript(() => {
      const delivered: string[] = [];
      Object.assign(window, { deliveredEventIds: delivered });
      const Native = window.EventSource;
      window.EventSource = class extends Native {
        constructor(url: string | URL, init?: EventSourceInit) {
          super(url, init);
          this.addEventListener("timeline", (event) => delivered.push((event as MessageEvent).lastEventId));
        }
      };
    });
    await page.goto("/sandboxes");
    await expect(page.getByRole("status").filter({ hasText: "interrupted" })).toBeVisible();

    const name = `meanwhile-${Date.now().toString(36)}`;
    const created = await request.post("/api/v1/sandboxes", { data: { name } });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const { items } = (await (await request.get(`/api/v1/sandboxes/${id}/timeline`)).json()) as { items: { id: string; reason: string }[] };
    const createdWhileDown = items.find((event) => event.reason === "Created")!.id;
    reconnect.release();
    await expect(page.getByRole("status").filter({ hasText: /^Live$/ })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole("rowheader", { name })).toBeVisible({ timeout: 15_000 });
    await expect.poll(() => page.evaluate(() => (window as unknown as { deliveredEventIds: string[] }).deliveredEventIds)).toContain(createdWhileDown);
  });

  test("shows a sandbox created elsewhere without a reload, and follows it to Ready", async ({ page, request }) => {
    await page.goto("/sandboxes");
    await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
    const name = `live-${Date.now().toString(36)}`;
    await request.post("/api/v1/sandboxes", { data: { name } });
    const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name }) });
    await expect(row).toBeVisible({ timeout: 15_000 });
    await expect(row.getByText("Ready", { exact: true })).toBeVisible({ timeout: 20_000 });
  });

  test("narrows the table with the search field", async ({ page, request }) => {
    const wanted = `find-me-${Date.now().toString(36)}`;
    await request.post("/api/v1/sandboxes", { data: { name: wanted } });
    await request.post("/api/v1/sandboxes", { data: { name: `other-${Date.now().toString(36)}` } });
    await page.goto("/sandboxes");
    await page.getByRole("searchbox", { name: "Search" }).fill("find-me");
    await expect(page.getByRole("rowheader")).toHaveText([wanted]);
  });
});

test.describe("the Volumes page, live", () => {
  test("shows a pvc sandbox's claim without a reload, owned by that sandbox", async ({ page, request }) => {
    await page.goto("/volumes");
    await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
    const name = `vol-${Date.now().toString(36)}`;
    await request.post("/api/v1/sandboxes", { data: { name, workspace: { claim: { ownership: "retain" } } } });
    const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^workspace-${name}`) }) });
    await expect(row).toBeVisible({ timeout: 15_000 });
    await expect(row.getByRole("cell").nth(1)).toHaveText("retain");
  });
});
