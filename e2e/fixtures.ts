import { expect, test as base, type APIRequestContext, type Page } from "@playwright/test";
import { storageStatePath, type DemoPersonId } from "./signed-in.ts";

/** A demo person's browser page and API client, each signed in as them. */
export interface SignedIn {
  page: Page;
  request: APIRequestContext;
}

/**
 * Berth's Playwright fixtures.
 *
 * `browserErrors` is automatic: it records everything the page logs as an error (console errors,
 * uncaught exceptions — hydration mismatches among them), attaches the log to the report, and
 * fails the test if there was any. A test that expects an error can empty the array.
 *
 * `request` is the API as the platform admin, sending the Origin a browser would: Berth refuses a
 * state-changing request with a session cookie from anywhere else. `signedInAs(person)` gives
 * another demo person's page and API client.
 */
export const test = base.extend<{ browserErrors: string[]; signedInAs: (person: DemoPersonId) => Promise<SignedIn> }>({
  request: async ({ playwright, baseURL }, use, testInfo) => {
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL! }, storageState: storageStatePath(testInfo.project.name, "paula") });
    await use(request);
    await request.dispose();
  },
  signedInAs: async ({ browser, playwright, baseURL }, use, testInfo) => {
    const opened: { close(): Promise<void> }[] = [];
    await use(async (person) => {
      const storageState = storageStatePath(testInfo.project.name, person);
      const context = await browser.newContext({ baseURL, storageState });
      const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL! }, storageState });
      opened.push(context, { close: () => request.dispose() });
      return { page: await context.newPage(), request };
    });
    for (const one of opened) await one.close();
  },
  browserErrors: [
    async ({ page }, use, testInfo) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(`console.error: ${message.text()}`);
      });
      page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
      await use(errors);
      if (errors.length > 0) {
        await testInfo.attach("browser-errors.txt", { body: errors.join("\n"), contentType: "text/plain" });
      }
      expect(errors, "the browser reported errors").toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * For a test that provokes refusals on purpose: forgets the browser's "Failed to load resource"
 * reports for these statuses (Chromium logs every failed fetch), keeping every other error.
 */
export function forgiveRefusedRequests(browserErrors: string[], ...statuses: number[]): void {
  const forgiven = (error: string) => statuses.some((status) => error.includes(`Failed to load resource: the server responded with a status of ${status} `));
  const kept = browserErrors.filter((error) => !forgiven(error));
  browserErrors.splice(0, browserErrors.length, ...kept);
}

export { expect };
