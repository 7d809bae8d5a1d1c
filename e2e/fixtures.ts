import { expect, test as base } from "@playwright/test";

/**
 * Berth's Playwright fixtures.
 *
 * `browserErrors` is automatic: it records everything the page logs as an error (console errors,
 * uncaught exceptions — hydration mismatches among them), attaches the log to the report, and
 * fails the test if there was any. A test that expects an error can empty the array.
 */
export const test = base.extend<{ browserErrors: string[] }>({
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
