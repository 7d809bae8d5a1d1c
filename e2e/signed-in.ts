import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEMO_PEOPLE } from "../lib/identity/demo-people.ts";

// Signing the demo people in over HTTP, the way a browser does it (Berth's /auth/sign-in, the
// embedded OpenID provider's redirects, Berth's callback setting the sealed session cookie), to
// give each test a signed-in browser or API context without clicking through the provider each
// time. The browser sign-in itself is tested in sign-in.flow.spec.ts.

export type DemoPersonId = (typeof DEMO_PEOPLE)[number]["id"];

interface Cookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "Lax";
}

/** Follows the sign-in's redirects with a cookie jar per host; answers Berth's cookies at the end. */
export async function signInOverHttp(baseURL: string, email: string): Promise<Cookie[]> {
  const jars = new Map<string, Map<string, string>>();
  let url = new URL(`/auth/sign-in?${new URLSearchParams({ person: email, returnTo: "/sandboxes" })}`, baseURL);
  for (let hop = 0; hop < 12; hop++) {
    const jar = jars.get(url.host) ?? new Map<string, string>();
    jars.set(url.host, jar);
    const response = await fetch(url, { redirect: "manual", headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") } });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const value = pair!.slice(at + 1);
      if (value === "" || /max-age=0/i.test(line)) jar.delete(pair!.slice(0, at));
      else jar.set(pair!.slice(0, at), value);
    }
    const location = response.headers.get("location");
    if (!location) throw new Error(`signing ${email} in stopped at ${url.href} with HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`);
    const next = new URL(location, url);
    if (next.host === new URL(baseURL).host && next.pathname === "/sandboxes") {
      const berth = jars.get(next.host)!;
      if (!berth.has("berth_session")) throw new Error(`signing ${email} in set no session cookie`);
      return [...berth].map(([name, value]) => ({ name, value, domain: next.hostname, path: "/", expires: Math.floor(Date.now() / 1000) + 3600, httpOnly: true, secure: false, sameSite: "Lax" }));
    }
    url = next;
  }
  throw new Error(`signing ${email} in took too many redirects`);
}

/** Where a project's signed-in state for a demo person is kept. */
export function storageStatePath(project: string, person: DemoPersonId): string {
  const directory = process.env.BERTH_E2E_SIGNED_IN_DIR;
  if (!directory) throw new Error("BERTH_E2E_SIGNED_IN_DIR is not set: run the browser tests through playwright.config.ts");
  return path.join(directory, `${project}-${person}.json`);
}

/** Signs every demo person in on the project's server and keeps each one's cookies as a Playwright storage state. */
export async function signInEveryone(project: string, baseURL: string): Promise<void> {
  mkdirSync(path.dirname(storageStatePath(project, "paula")), { recursive: true });
  for (const person of DEMO_PEOPLE) {
    const cookies = await signInOverHttp(baseURL, person.email);
    writeFileSync(storageStatePath(project, person.id as DemoPersonId), JSON.stringify({ cookies, origins: [] }));
  }
}

/** The Cookie header a demo person's browser sends, for a test that reads a stream with plain fetch. */
export function cookieHeaderOf(project: string, person: DemoPersonId): string {
  const state = JSON.parse(readFileSync(storageStatePath(project, person), "utf8")) as { cookies: Cookie[] };
  return state.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}
