// `npm run bench:console`: the console in a real Chromium against a production build (run
// `npx next build` first). Fixed workloads, printed as tables:
//   - first-load JavaScript of each page (what a cold browser downloads before it is usable),
//     compressed as served and decoded;
//   - the Sandboxes page with 1,000 sandboxes: time from navigation to the first rows painted
//     (Element Timing) and to a usable (hydrated) table, the time a search takes to filter
//     1,000 rows, and frame times while scrolling the virtualized table from top to bottom.
//     Medians of fixed runs;
//   - listing those 1,000 over HTTP: Berth's API (and its 304 revalidation) against the same list
//     straight from the cluster API, read by the same plain HTTP client, medians of 11;
//   - an eviction in the cluster to the row's badge changing in Chromium, with the 1,000 listed,
//     and the requests for sandboxes the page made meanwhile (the event stream carries it all);
//   - a storm of 500 evictions within 10 s: from each request to its sandbox's update arriving
//     in Chromium, and to its row showing it (rows on screen), as percentiles;
//   - the server's resident memory: idle after start, with the 1,000 sandboxes, and with 10,000;
//   - the list over HTTP again with 10,000 sandboxes.
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { CoreV1Api, CustomObjectsApi, KubeConfig } from "@kubernetes/client-node";
import { residentMiB, signInAs, startConsole, stopConsole, waitFor } from "./console-server.ts";
import { median } from "./measure.ts";

const PORT = Number(process.env.BERTH_BENCH_PORT ?? 3290);
const BASE = `http://127.0.0.1:${PORT}`;
const SANDBOXES = 1000;
const LOAD_RUNS = 5;
const LIST_RUNS = 11;
/** Running sandboxes evicted one at a time while the page shows them. */
const EVICTIONS = 20;
/** A storm: this many running sandboxes evicted through the Eviction API within STORM_MS, one every STORM_MS / STORM_EVICTIONS. */
const STORM_EVICTIONS = 500;
const STORM_MS = 10_000;
/** The fleet the list and the server's memory are measured at last. */
const FLEET = 10_000;
/** Enough worker nodes (110 pods each) for every running sandbox of the benchmark. */
const WORKERS = 8;
/** How long the console is left alone before its idle memory is read. */
const IDLE_AFTER_MS = 10_000;
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

/** The embedded cluster as its administrator reaches it, from the kubeconfig it writes. */
function clusterAdmin(dataDir: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromFile(path.join(dataDir, "cluster", "kubeconfig"));
  return config;
}

/** `count` Sandboxes made straight in the cluster (suspended: no pod), named `prefix-0000`…; the console finds them as it would kubectl's. */
async function seedSandboxes(dataDir: string, prefix: string, count: number, suspended: boolean): Promise<void> {
  const custom = clusterAdmin(dataDir).makeApiClient(CustomObjectsApi);
  for (let start = 0; start < count; start += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - start) }, (_, offset) =>
        custom.createNamespacedCustomObject({
          group: "agents.x-k8s.io", version: "v1beta1", namespace: "default", plural: "sandboxes",
          body: { apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", metadata: { name: `${prefix}-${String(start + offset).padStart(4, "0")}` }, spec: { ...(suspended ? { operatingMode: "Suspended" } : {}), podTemplate: { spec: { containers: [{ name: "agent", image: "busybox" }] } } } },
        }),
      ),
    );
  }
}

/** A GET read to its last byte by one plain HTTP client, whichever server answers: its status, body and ETag. */
function getText(url: string, headers: Record<string, string>, ca?: Buffer): Promise<{ status: number; body: string; etag: string | undefined }> {
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(target, { headers, ...(ca ? { ca } : {}) }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), etag: response.headers.etag }));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

/** Every page of a list, 500 at a time, by its cursor; the ETag of the first. */
async function readEveryPage(pageUrl: (cursor: string | null) => string, next: (body: string) => string | null, headers: Record<string, string>, ca?: Buffer): Promise<string | undefined> {
  let first: string | undefined;
  let cursor: string | null = null;
  do {
    const answer = await getText(pageUrl(cursor), headers, ca);
    if (answer.status !== 200) throw new Error(`${pageUrl(cursor)} answered ${answer.status}`);
    first ??= answer.etag;
    cursor = next(answer.body);
  } while (cursor);
  return first;
}

/**
 * The first page asked for again with the ETag it had, as a client holding the list asks whether
 * it changed: null for a 304, or the new ETag when the list did change meanwhile (a 200).
 */
async function revalidate(url: string, headers: Record<string, string>, etag: string): Promise<string | null> {
  const answer = await getText(url, { ...headers, "if-none-match": etag });
  if (answer.status === 304) return null;
  if (answer.status === 200 && answer.etag) return answer.etag;
  throw new Error(`${url} with If-None-Match answered ${answer.status}${answer.etag ? "" : " with no ETag"}`);
}

async function medianMs(runs: number, work: () => Promise<unknown>): Promise<number> {
  const took: number[] = [];
  for (let run = 0; run < runs; run++) {
    const began = performance.now();
    await work();
    took.push(performance.now() - began);
  }
  return median(took);
}

/** The 1,000 listed by Berth over HTTP (fresh, and revalidated), and straight from the cluster API over HTTP. */
async function listTimes(dataDir: string) {
  const cluster = clusterAdmin(dataDir);
  const server = cluster.getCurrentCluster()!.server;
  const ca = Buffer.from(cluster.getCurrentCluster()!.caData!, "base64");
  const token = cluster.getCurrentUser()!.token!;
  const fromCluster = () =>
    readEveryPage(
      (cursor) => `${server}/apis/agents.x-k8s.io/v1beta1/namespaces/default/sandboxes?limit=500${cursor ? `&continue=${encodeURIComponent(cursor)}` : ""}`,
      (body) => (JSON.parse(body) as { metadata: { continue?: string } }).metadata.continue || null,
      { authorization: `Bearer ${token}`, accept: "application/json" },
      ca,
    );
  const berthPages = (cursor: string | null) => `${BASE}/api/v1/sandboxes?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
  const berthNext = (body: string) => (JSON.parse(body) as { nextCursor: string | null }).nextCursor;
  const fromBerth = () => readEveryPage(berthPages, berthNext, signedIn.header);
  let etag = await fromBerth();
  if (!etag) throw new Error("Berth's list carried no ETag");
  // A sandbox that changed meanwhile makes it a 200 with a new ETag: asked again with that one.
  const revalidated = async () => {
    for (let asked = 0; asked < 3; asked++) {
      const changed = await revalidate(berthPages(null), signedIn.header, etag!);
      if (!changed) return;
      etag = changed;
    }
    throw new Error("the list changed at every one of three revalidations");
  };
  return { berth: await medianMs(LIST_RUNS, fromBerth), notModified: await medianMs(LIST_RUNS, revalidated), cluster: await medianMs(LIST_RUNS, fromCluster) };
}

/**
 * Running sandboxes evicted one at a time while the Sandboxes page shows them (searched for, so
 * they are on screen among the 1,000): from just before the eviction request to the row's badge
 * leaving Ready, and the requests for sandboxes the page made in all that time.
 */
async function evictionToBadge(browser: Browser): Promise<{ delays: number[]; requests: number }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: { cookies: signedIn.cookies, origins: [] } });
  const page = await context.newPage();
  const mounted = page.waitForResponse((answer) => new URL(answer.url()).pathname === "/api/v1/sandboxes");
  await page.goto(`${BASE}/sandboxes`);
  await mounted;
  await page.getByRole("searchbox").fill("live-");
  await page.getByRole("status").filter({ hasText: /^Live$/ }).waitFor();
  let requests = 0;
  page.on("request", (sent) => {
    if (new URL(sent.url()).pathname.startsWith("/api/v1/sandboxes")) requests++;
  });
  const delays: number[] = [];
  for (let index = 0; index < EVICTIONS; index++) {
    const name = `live-${String(index).padStart(4, "0")}`;
    const began = performance.now();
    const evicted = await api(`/api/v1/simulator/pods/default/${name}/kubelet-evict`, { method: "POST" });
    if (!evicted.ok) throw new Error(`evicting ${name} answered ${evicted.status}: ${await evicted.text()}`);
    await page.waitForFunction(
      (wanted) => [...document.querySelectorAll("tbody tr")].some((row) => row.textContent?.includes(wanted) && row.querySelector('[data-tone]:not([data-tone="ok"])')),
      name,
      { polling: "raf" },
    );
    delays.push(performance.now() - began);
  }
  await context.close();
  return { delays, requests };
}

/**
 * What the page saw of a storm, recorded in the page by the wall clock (Date.now(), the clock the
 * evictions were sent by): when the event stream brought each `storm-` sandbox showing its
 * eviction, and when its row showed it in the DOM, for the rows on screen. A sandbox shows its
 * eviction when it is no longer Ready or has a last disruption (the storm's had none before): its
 * status is derived from the state it finds, so one whose replacement was already running when it
 * looked goes from Ready to Ready, on a new pod, with the disruption recorded. A string, so tsx's
 * helpers (__name) are not shipped into the page.
 */
const STORM_WATCH = `(() => {
  const arrived = (window.__stormArrived = {});
  const badged = (window.__stormBadged = {});
  const Original = window.EventSource;
  window.EventSource = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener("sandbox", (message) => {
        const record = JSON.parse(message.data).record;
        if (record && record.name.startsWith("storm-") && (record.phase !== "Ready" || record.details.disruption) && !(record.name in arrived)) arrived[record.name] = Date.now();
      });
    }
  };
  addEventListener("DOMContentLoaded", () => {
    new MutationObserver(() => {
      for (const row of document.querySelectorAll("tbody tr")) {
        const name = row.querySelector("th")?.textContent ?? "";
        const disrupted = row.querySelector('[data-tone]:not([data-tone="ok"])') || row.querySelector("td:last-child")?.textContent !== "—";
        if (name.startsWith("storm-") && !(name in badged) && disrupted) badged[name] = Date.now();
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
})()`;

/** The storm's order: a fixed permutation, so the rows on screen (the first by name) are hit throughout it, not in its first half second. */
const stormOrder = (count: number) => Array.from({ length: count }, (_, index) => (index * 37) % count);

/**
 * STORM_EVICTIONS running sandboxes evicted through the Eviction API within STORM_MS while the
 * Sandboxes page lists them all (searched for `storm-`): from each eviction request to the event
 * stream bringing its sandbox into the page showing the eviction, and to its row showing it where
 * the row is on screen; the requests for sandboxes the page made meanwhile.
 */
async function evictionStorm(browser: Browser, dataDir: string): Promise<{ arrivals: number[]; badges: number[]; requests: number; refused: number }> {
  const core = clusterAdmin(dataDir).makeApiClient(CoreV1Api);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: { cookies: signedIn.cookies, origins: [] } });
  await context.addInitScript(STORM_WATCH);
  const page = await context.newPage();
  await page.goto(`${BASE}/sandboxes`);
  await page.getByRole("searchbox").fill("storm-");
  await page.getByRole("status").filter({ hasText: /^Live$/ }).waitFor();
  let requests = 0;
  page.on("request", (sent) => {
    if (new URL(sent.url()).pathname.startsWith("/api/v1/sandboxes")) requests++;
  });
  const sentAt = new Map<string, number>();
  let refused = 0;
  const began = performance.now();
  const sent: Promise<void>[] = [];
  for (const [turn, index] of stormOrder(STORM_EVICTIONS).entries()) {
    const due = began + (turn * STORM_MS) / STORM_EVICTIONS;
    if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
    const name = `storm-${String(index).padStart(4, "0")}`;
    sentAt.set(name, Date.now());
    sent.push(
      core
        .createNamespacedPodEviction({ namespace: "default", name, body: { apiVersion: "policy/v1", kind: "Eviction", metadata: { name, namespace: "default" } } })
        .then(() => {}, () => void refused++),
    );
  }
  await Promise.all(sent);
  const arrived = await waitFor(`the ${STORM_EVICTIONS - refused} evicted sandboxes in the page`, async () => {
    const seen = (await page.evaluate("window.__stormArrived")) as Record<string, number>;
    return Object.keys(seen).length >= STORM_EVICTIONS - refused ? seen : undefined;
  }, 120_000);
  const badged = (await page.evaluate("window.__stormBadged")) as Record<string, number>;
  await context.close();
  const since = (seen: Record<string, number>) => Object.entries(seen).map(([name, at]) => at - sentAt.get(name)!);
  return { arrivals: since(arrived), badges: since(badged), requests, refused };
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

/** Every sandbox the console lists, page by page: its name and phase. */
async function listed(): Promise<{ name: string; phase: string }[]> {
  const items: { name: string; phase: string }[] = [];
  let cursor: string | null = null;
  do {
    const page = (await (await api(`/api/v1/sandboxes?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)).json()) as { items: { name: string; phase: string }[]; nextCursor: string | null };
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

const listedCount = async () => (await listed()).length;

/** `count` running sandboxes named `prefix-…` made in the cluster, and waited for until the console lists them all Ready. */
async function seedRunning(prefix: string, count: number): Promise<void> {
  await seedSandboxes(dataDir, prefix, count, false);
  await waitFor(`${count} running sandboxes Ready`, async () => ((await listed()).filter((item) => item.name.startsWith(`${prefix}-`) && item.phase === "Ready").length === count ? true : undefined), 600_000);
}

function printListTimes(count: number, lists: Awaited<ReturnType<typeof listTimes>>): void {
  console.log(`\n| every page of the ${count} sandboxes, 500 a page, over HTTP (one plain client) | runs | median ms | ÷ cluster API |\n|---|---:|---:|---:|`);
  console.log(`| cluster API: GET …/sandboxes straight from the embedded cluster | ${LIST_RUNS} | ${lists.cluster.toFixed(1)} | 1.00 |`);
  console.log(`| Berth: GET /api/v1/sandboxes | ${LIST_RUNS} | ${lists.berth.toFixed(1)} | ${(lists.berth / lists.cluster).toFixed(2)} |`);
  console.log(`| Berth: the first page revalidated with its ETag (304) | ${LIST_RUNS} | ${lists.notModified.toFixed(1)} | ${(lists.notModified / lists.cluster).toFixed(2)} |`);
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
  // When the browser painted the first row's name (Element Timing), not when this script got to
  // run: that waits for the main thread, which is busy with the page's JavaScript.
  const rowsVisibleMs = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        setTimeout(() => reject(new Error("the browser reported no paint of a row's name (Element Timing, 'sandbox-name')")), 30_000);
        new PerformanceObserver((list, observer) => {
          const painted = (list.getEntries() as (PerformanceEntry & { identifier: string; renderTime: number })[]).filter((entry) => entry.identifier === "sandbox-name");
          if (painted.length === 0) return;
          observer.disconnect();
          resolve(Math.min(...painted.map((entry) => entry.renderTime)));
        }).observe({ type: "element", buffered: true });
      }),
  );
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
    const shown = (text) => new Promise((resolve, reject) => {
      const deadline = performance.now() + 30000;
      const check = () => (document.body.innerText.includes(text) ? resolve() : performance.now() > deadline ? reject(new Error("the search never showed " + text)) : requestAnimationFrame(check));
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
      // A table that stops scrolling short of its end fails the run, rather than holding it forever.
      if (durations.length > 5_000) throw new Error(`the table stopped scrolling at ${scroller.scrollTop} of ${scroller.scrollHeight} px`);
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
const server = startConsole(BASE, dataDir, { BERTH_MAX_SANDBOXES_PER_NAMESPACE: String(FLEET * 2), BERTH_SIM_WORKERS: String(WORKERS) });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
try {
  await waitFor("the console", async () => ((await fetch(`${BASE}/api/health`)).ok ? true : undefined));
  await new Promise((resolve) => setTimeout(resolve, IDLE_AFTER_MS));
  const idleMiB = residentMiB(server.pid!);
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
  await seedSandboxes(dataDir, "bench", SANDBOXES, true);
  await waitFor("1,000 sandboxes in the console's list", async () => ((await listedCount()) >= SANDBOXES ? true : undefined), 300_000);
  console.log(`\n${SANDBOXES} Sandboxes made in the cluster and listed by the console after ${((performance.now() - seedStarted) / 1000).toFixed(1)} s.\n`);

  const runs: TableRun[] = [];
  for (let i = 0; i < LOAD_RUNS; i++) runs.push(await sandboxesTableRun(browser));
  const row = (name: string, pick: (run: TableRun) => number) => console.log(`| ${name} | ${LOAD_RUNS} | ${median(runs.map(pick)).toFixed(1)} | ${Math.max(...runs.map(pick)).toFixed(1)} |`);
  console.log(`| Sandboxes page, ${SANDBOXES} sandboxes (cold load, fresh context) | runs | median ms | worst ms |\n|---|---:|---:|---:|`);
  row("navigation → first byte of the page (server render)", (run) => run.firstByteMs);
  row("navigation → last byte of the page (the streamed rows and their data)", (run) => run.lastByteMs);
  row("navigation → first rows painted (server-rendered; Element Timing)", (run) => run.rowsVisibleMs);
  row("navigation → loaded and hydrated (count rendered by the client)", (run) => run.interactiveMs);
  row(`search filters ${SANDBOXES} rows to 100 (input → rows on screen)`, (run) => run.searchMs);
  row("scroll top → bottom: median frame", (run) => run.medianFrameMs);
  row("scroll top → bottom: worst frame", (run) => run.worstFrameMs);
  console.log(`\nThe page's HTML with its data: ${median(runs.map((run) => run.documentKiB)).toFixed(0)} KiB decoded.`);
  console.log(`\n| the console's resident memory (next start, embedded store and cluster) | MiB |\n|---|---:|`);
  console.log(`| idle, ${IDLE_AFTER_MS / 1000} s after it first answered, nothing created | ${idleMiB.toFixed(0)} |`);
  console.log(`| with ${SANDBOXES} sandboxes, after ${LOAD_RUNS} loads of the Sandboxes page | ${residentMiB(server.pid!).toFixed(0)} |`);

  printListTimes(SANDBOXES, await listTimes(dataDir));

  await seedRunning("live", EVICTIONS);
  const evictions = await evictionToBadge(browser);
  console.log(`\n| kubelet eviction → the row's badge changes in Chromium (${SANDBOXES + EVICTIONS} listed, one at a time) | evictions | median ms | p95 ms | worst ms |\n|---|---:|---:|---:|---:|`);
  console.log(`| request sent → badge no longer Ready | ${EVICTIONS} | ${median(evictions.delays).toFixed(0)} | ${percentile(evictions.delays, 95).toFixed(0)} | ${Math.max(...evictions.delays).toFixed(0)} |`);
  console.log(`\nRequests for sandboxes the page made during the ${EVICTIONS} evictions: ${evictions.requests} (${(evictions.requests / EVICTIONS).toFixed(2)} per eviction).`);

  await seedRunning("storm", STORM_EVICTIONS);
  const storm = await evictionStorm(browser, dataDir);
  const stormRow = (name: string, delays: number[]) =>
    console.log(`| ${name} | ${delays.length} | ${median(delays).toFixed(0)} | ${percentile(delays, 95).toFixed(0)} | ${percentile(delays, 99).toFixed(0)} | ${Math.max(...delays).toFixed(0)} |`);
  console.log(`\n| a storm: ${STORM_EVICTIONS} evictions (Eviction API) within ${STORM_MS / 1000} s, ${await listedCount()} listed, the page searched for the storm's | samples | median ms | p95 ms | p99 ms | worst ms |\n|---|---:|---:|---:|---:|---:|`);
  stormRow("eviction request → the sandbox's update arrives in Chromium (event stream)", storm.arrivals);
  stormRow("eviction request → the row shows it: badge no longer Ready, or the disruption in its last column (rows on screen)", storm.badges);
  console.log(`\nEvictions refused by the cluster: ${storm.refused}. Requests for sandboxes the page made during the storm: ${storm.requests}.`);

  const fleetStarted = performance.now();
  await seedSandboxes(dataDir, "fleet", FLEET - (await listedCount()), true);
  await waitFor(`${FLEET} sandboxes in the console's list`, async () => ((await listedCount()) >= FLEET ? true : undefined), 1_800_000);
  console.log(`\nThe fleet grown to ${FLEET} sandboxes (suspended ones made in the cluster) and listed by the console after ${((performance.now() - fleetStarted) / 1000).toFixed(1)} s; the console's resident memory then: ${residentMiB(server.pid!).toFixed(0)} MiB.`);
  printListTimes(FLEET, await listTimes(dataDir));
} finally {
  await browser.close();
  stopConsole(server);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  rmSync(dataDir, { recursive: true, force: true });
}
