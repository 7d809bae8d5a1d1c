import { chromium } from "@playwright/test";
import { signInOverHttp } from "./e2e/signed-in.ts";
const BASE = "http://127.0.0.1:3295";
const cookies = await signInOverHttp(BASE, "paula@berth.example");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
for (const path of ["/sandboxes", "/nodes", "/sandboxes", "/volumes"]) {
  const context = await browser.newContext({ storageState: { cookies, origins: [] } });
  const page = await context.newPage();
  await page.goto(BASE + path, { waitUntil: "load" });
  await page.waitForTimeout(300);
  const t = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const res = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).map((r) => `${r.initiatorType} ${r.name.split("/").pop()} ${r.startTime.toFixed(0)}-${r.responseEnd.toFixed(0)} ${r.renderBlockingStatus}`);
    return { responseEnd: nav.responseEnd.toFixed(0), domInteractive: nav.domInteractive.toFixed(0), fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime.toFixed(0), res };
  });
  console.log(path, JSON.stringify(t, null, 0));
  await context.close();
}
await browser.close();
