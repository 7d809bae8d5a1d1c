// `npm run bench:console`: the console in a real Chromium against a production build (run
// `npx next build` first). Fixed workloads, printed as tables:
//   - first-load JavaScript of each page (what a cold browser downloads before it is usable),
//     compressed as served and decoded;
//   - the Sandboxes page with 1,000 sandboxes: time from navigation to the first rows on screen
//     and to a usable (hydrated) table, the time a search takes to filter 1,000 rows, and frame
//     times while scrolling the virtualized table from top to bottom. Medians of fixed runs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { CustomObjectsApi, KubeConfig } from "@kubernetes/client-node";
import { signInAs, startConsole, stopConsole, waitFor } from "./console-server.ts";

const PORT = Number(process.env.BERTH_BENCH_PORT ?? 3290);
const BASE = `http://127.0.0.1:${PORT}`;
const SANDBOXES = 1000;
const LOAD_RUNS = 5;
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

/** 1,000 suspended Sandboxes made straight in the cluster; the console finds them as it would kubectl's. */
async function seedSandboxes(dataDir: string): Promise<void> {
  // As the cluster's administrator, from the kubeconfig the embedded cluster writes.
  const config = new KubeConfig();
  config.loadFromFile(path.join(dataDir, "cluster", "kubeconfig"));
  const custom = config.makeApiClient(CustomObjectsApi);
  for (let start = 0; start < SANDBOXES; start += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, SANDBOXES - start) }, (_, offset) =>
        custom.createNamespacedCustomObject({
          group: "agents.x-k8s.io", version: "v1beta1", namespace: "default", plural: "sandboxes",
          body: { apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", metadata: { name: `bench-${String(start + offset).padStart(4, "0")}` }, spec: { operatingMode: "Suspended", podTemplate: { spec: { containers: [{ name: "agent", image: "busybox" }] } } } },
        }),
      ),
    );
  }
}

/** The benchmark acts as a platform admin (paula) signed in the way a browser is: a session cookie. */
let signedIn: Awaited<ReturnType<typeof signInAs>>;

async function signIn(): Promise<void> {
  signedIn = await signInAs(BASE, "paula@berth.example");
}

const api = (pathname: string, init: RequestInit = {}) => fetch(`${BASE}${pathname}`, { ...init, headers: { ...signedIn.header, ...(init.headers as Record<string, string> | undefined) } });

/** One sandbox made through Berth's API (ephemeral: no claim to wait for), Ready; its id. */
async function createOneSandbox(): Promise<string> {
  const created = await api("/api/v1/sandboxes", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "bench-detail", workspace: { backend: "ephemeral" } }) });
  if (created.status !== 201) throw new Error(`creating the detail page's sandbox answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  await waitFor("the detail page's sandbox to be Ready", async () => (((await (await api(`/api/v1/sandboxes/${id}`)).json()) as { phase: string }).phase === "Ready" ? true : undefined));
  return id;
}

async function listedCount(): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const page = (await (await api(`/api/v1/sandboxes?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)).json()) as { items: unknown[]; nextCursor: string | null };
    count += page.items.length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}

/** Bytes of JavaScript a fresh browser loads for the page (every script resource up to load). */
async function firstLoadJs(browser: Browser, pathname: string): Promise<{ transferred: number; decoded: number; firstPaintMs: number }> {
  const context = await browser.newContext({ storageState: { cookies: signedIn.cookies, origins: [] } });
  const page = await context.newPage();
  await page.goto(`${BASE}${pathname}`, { waitUntil: "load" });
  const firstPaintMs = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN);
  const sizes = await page.evaluate(() =>
    (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((entry) => entry.initiatorType === "script" || entry.name.endsWith(".js"))
      .map((entry) => ({ transferred: entry.transferSize, decoded: entry.decodedBodySize })),
  );
  await context.close();
  return { ...sizes.reduce((sum, one) => ({ transferred: sum.transferred + one.transferred, decoded: sum.decoded + one.decoded }), { transferred: 0, decoded: 0 }), firstPaintMs };
}

interface TableRun {
  /** When the server's first byte arrived: its time to render the page. */
  firstByteMs: number;
  /** When its last byte arrived: the server has streamed everything. */
  lastByteMs: number;
  /** The page's HTML (with the streamed data the client starts from), decoded. */
  documentKiB: number;
  rowsVisibleMs: number;
  interactiveMs: number;
  searchMs: number;
  medianFrameMs: number;
  worstFrameMs: number;
}

/** One cold load of the Sandboxes page with 1,000 rows, a search, and a scroll to the bottom. */
async function sandboxesTableRun(browser: Browser): Promise<TableRun> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: { cookies: signedIn.cookies, origins: [] } });
  const page = await context.newPage();
  await page.goto(`${BASE}/sandboxes`, { waitUntil: "commit" });
  await page.waitForSelector("tbody tr[data-index]");
  const rowsVisibleMs = await page.evaluate(() => performance.now());
  await page.waitForLoadState("load");
  const navigation = await page.evaluate(() => {
    const entry = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return { firstByteMs: entry.responseStart, lastByteMs: entry.responseEnd, documentKiB: entry.decodedBodySize / 1024 };
  });
  // Hydrated: the count the client renders from the data it holds.
  await page.waitForFunction((expected) => document.body.innerText.includes(`${expected} sandboxes`), SANDBOXES);
  const search = page.getByRole("searchbox");
  await search.waitFor();
  await page.waitForLoadState("load");
  const interactiveMs = await page.evaluate(() => performance.now());

  // React sees a typed value only through the native setter and an input event. A string, so
  // tsx's helpers (__name) are not shipped into the page.
  const searchMs = (await page.evaluate(`(async (total) => {
    const input = document.querySelector('input[type="search"]');
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
    const type = (value) => { setter.call(input, value); input.dispatchEvent(new Event("input", { bubbles: true })); };
    const shown = (text) => new Promise((resolve) => {
      const check = () => (document.body.innerText.includes(text) ? resolve() : requestAnimationFrame(check));
      check();
    });
    const began = performance.now();
    type("bench-09");
    await shown("100 of " + total + " sandboxes");
    const took = performance.now() - began;
    type("");
    await shown(total + " sandboxes");
    return took;
  })(${SANDBOXES})`)) as number;

  const frames = await page.evaluate(async () => {
    const scroller = document.querySelector<HTMLElement>('[role="region"][aria-label^="Sandboxes"]')!;
    const durations: number[] = [];
    let last = performance.now();
    while (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1) {
      scroller.scrollTop += 240;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const now = performance.now();
      durations.push(now - last);
      last = now;
    }
    return durations;
  });
  await context.close();
  return { ...navigation, rowsVisibleMs, interactiveMs, searchMs, medianFrameMs: frames.sort((a, b) => a - b)[Math.floor(frames.length / 2)]!, worstFrameMs: Math.max(...frames) };
}

const dataDir = mkdtempSync(path.join(tmpdir(), "berth-bench-console-"));
const server = startConsole(BASE, dataDir, { BERTH_MAX_SANDBOXES_PER_NAMESPACE: String(SANDBOXES * 2) });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
try {
  await waitFor("the console", async () => ((await fetch(`${BASE}/api/health`)).ok ? true : undefined));
  await signIn();

  console.log(`Berth console benchmarks — Chromium against next start, ${new Date().toISOString()}\n`);
  console.log("| page (empty store) | first-load JS transferred KiB | decoded KiB | first contentful paint ms |\n|---|---:|---:|---:|");
  for (const pathname of ["/sandboxes", "/sandboxes/new", "/volumes", "/nodes", "/settings", "/simulator"]) {
    const size = await firstLoadJs(browser, pathname);
    console.log(`| ${pathname} | ${kib(size.transferred)} | ${kib(size.decoded)} | ${size.firstPaintMs.toFixed(0)} |`);
  }
  // The detail page needs a sandbox to show: one, with its timeline, conditions and actions,
  // deleted again so the 1,000-row workload below is exactly 1,000.
  const detailId = await createOneSandbox();
  const detail = await firstLoadJs(browser, `/sandboxes/${detailId}`);
  console.log(`| /sandboxes/[id] (one sandbox) | ${kib(detail.transferred)} | ${kib(detail.decoded)} | ${detail.firstPaintMs.toFixed(0)} |`);
  await api(`/api/v1/sandboxes/${detailId}`, { method: "DELETE" });
  await waitFor("the detail page's sandbox to leave the list", async () => ((await listedCount()) === 0 ? true : undefined));

  const seedStarted = performance.now();
  await seedSandboxes(dataDir);
  await waitFor("1,000 sandboxes in the console's list", async () => ((await listedCount()) >= SANDBOXES ? true : undefined), 300_000);
  console.log(`\n${SANDBOXES} Sandboxes made in the cluster and listed by the console after ${((performance.now() - seedStarted) / 1000).toFixed(1)} s.\n`);

  const runs: TableRun[] = [];
  for (let i = 0; i < LOAD_RUNS; i++) runs.push(await sandboxesTableRun(browser));
  const row = (name: string, pick: (run: TableRun) => number) => console.log(`| ${name} | ${LOAD_RUNS} | ${median(runs.map(pick)).toFixed(1)} | ${Math.max(...runs.map(pick)).toFixed(1)} |`);
  console.log(`| Sandboxes page, ${SANDBOXES} sandboxes (cold load, fresh context) | runs | median ms | worst ms |\n|---|---:|---:|---:|`);
  row("navigation → first byte of the page (server render)", (run) => run.firstByteMs);
  row("navigation → last byte of the page (the streamed rows and their data)", (run) => run.lastByteMs);
  row("navigation → first rows on screen (server-rendered)", (run) => run.rowsVisibleMs);
  row("navigation → loaded and hydrated (count rendered by the client)", (run) => run.interactiveMs);
  row(`search filters ${SANDBOXES} rows to 100 (input → rows on screen)`, (run) => run.searchMs);
  row("scroll top → bottom: median frame", (run) => run.medianFrameMs);
  row("scroll top → bottom: worst frame", (run) => run.worstFrameMs);
  console.log(`\nThe page's HTML with its data: ${median(runs.map((run) => run.documentKiB)).toFixed(0)} KiB decoded.`);
} finally {
  await browser.close();
  stopConsole(server);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  rmSync(dataDir, { recursive: true, force: true });
}
