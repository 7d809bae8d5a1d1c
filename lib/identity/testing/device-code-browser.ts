// The browser's part of the device flow, over plain HTTP with a cookie jar, for tests that sign a
// terminal in without a real browser (the e2e suite does it in Chromium).

/**
 * A browser's part in the device flow: opens the address with the code in it, confirms the code
 * (or cancels), chooses the person on the provider's page, and follows redirects to the end.
 */
export async function enterDeviceCode(start: string, options: { person: string; cancel?: boolean }): Promise<string> {
  const cookies = new Map<string, string>();
  let url = new URL(start);
  let request: { method: "POST"; body: URLSearchParams } | null = null;
  for (let hop = 0; hop < 12; hop++) {
    const response = await fetch(url, {
      redirect: "manual",
      ...(request ? { method: "POST", body: request.body } : {}),
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    request = null;
    const location = response.headers.get("location");
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const page = await response.text();
    // Each page's form, submitted as a person would: the hidden fields, the person chosen, the code confirmed or cancelled.
    const form = /<form[^>]*action="([^"]+)"[^>]*>([^]*?)<\/form>/.exec(page);
    // No form to submit, or the one asking for a code again: the walk has ended.
    if (!form || form[0].includes("op.deviceInputForm")) return page;
    const fields = new URLSearchParams([...form[2]!.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((field) => [field[1]!, field[2]!]));
    if (form[2]!.includes('name="person"')) fields.set("person", options.person);
    if (form[0].includes("op.deviceConfirmForm") && options.cancel) fields.set("abort", "yes");
    url = new URL(form[1]!, url);
    request = { method: "POST", body: fields };
  }
  throw new Error("too many steps");
}
