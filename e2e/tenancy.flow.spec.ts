import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { cookieHeaderOf } from "./signed-in.ts";

// Berth shared by several people, on the embedded defaults: each demo person signs in through the
// real OpenID flow, sees only what Kubernetes RBAC lets them see, and may do only what it lets
// them do. Team-a's developer (alex) and team-b's (bea) never see each other's sandboxes; the
// viewer (victor) sees both teams' and may change nothing.

let counter = 0;
const uniqueName = (what: string) => `${what}-${Date.now().toString(36)}-${++counter}`;

async function createIn(request: APIRequestContext, namespace: string, name: string): Promise<string> {
  const response = await request.post("/api/v1/sandboxes", { data: { name, namespace } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function signInThroughTheProvider(page: Page, name: string): Promise<void> {
  await page.goto("/sandboxes");
  await expect(page).toHaveURL(/\/sign-in\?returnTo=%2Fsandboxes/);
  await page.getByRole("link", { name: new RegExp(`^${name}`) }).click();
  await expect(page).toHaveURL(/\/sandboxes$/);
}

test.describe("signing in", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  for (const [name, email, role] of [
    ["Paula Platform", "paula@berth.example", "berth-platform-admin"],
    ["Alex Developer", "alex@berth.example", "berth-developer in team-a"],
    ["Bea Developer", "bea@berth.example", "berth-developer in team-b"],
    ["Victor Viewer", "victor@berth.example", "berth-viewer in team-a, team-b"],
  ] as const) {
    test(`${name} signs in through the OpenID provider and the header says who, with their role`, async ({ page }) => {
      await signInThroughTheProvider(page, name);
      await expect(page.getByTestId("signed-in-user")).toHaveText(email);
      await expect(page.getByRole("banner")).toContainText(role);
    });
  }

  test("a person chosen on the provider's own page is signed in as that person", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByRole("link", { name: "choose on the provider's own page" }).click();
    await page.getByRole("button", { name: /Bea Developer/ }).click();
    await expect(page.getByTestId("signed-in-user")).toHaveText("bea@berth.example");
  });

  test("signing out ends the session: the console asks to sign in again", async ({ page }) => {
    await signInThroughTheProvider(page, "Alex Developer");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("status")).toHaveText("You are signed out.");
    await page.goto("/sandboxes");
    await expect(page).toHaveURL(/\/sign-in/);
  });

  test("nobody signed in gets nothing from the API", async ({ playwright, baseURL }) => {
    const anonymous = await playwright.request.newContext({ baseURL });
    const answers = await Promise.all(["/api/v1/sandboxes", "/api/v1/events", "/api/v1/volumes", "/api/v1/nodes", "/metrics"].map(async (path) => (await anonymous.get(path)).status()));
    await anonymous.dispose();
    expect(answers).toEqual([401, 401, 401, 401, 401]);
  });
});

test.describe("tenancy", () => {
  test("team-a's developer never sees team-b's sandboxes: not in the list, the search, the volumes or on the nodes", async ({ signedInAs }) => {
    const alex = await signedInAs("alex");
    const bea = await signedInAs("bea");
    const mine = uniqueName("alex-box");
    const theirs = uniqueName("bea-box");
    await createIn(alex.request, "team-a", mine);
    const theirId = await createIn(bea.request, "team-b", theirs);

    await alex.page.goto("/sandboxes");
    await expect(alex.page.getByRole("link", { name: mine })).toBeVisible();
    await alex.page.getByRole("searchbox", { name: "Search" }).fill(theirs);
    await expect(alex.page.getByText(theirs)).toHaveCount(0);
    const listed = (await (await alex.request.get("/api/v1/sandboxes?limit=500")).json()) as { items: { name: string }[] };
    expect(listed.items.map((item) => item.name)).not.toContain(theirs);
    expect((await alex.request.get(`/api/v1/sandboxes/${theirId}`)).status()).toBe(404);

    await expect.poll(async () => ((await (await bea.request.get("/api/v1/sandboxes/" + theirId)).json()) as { nodeName: string | null }).nodeName, { timeout: 20_000 }).not.toBeNull();
    await alex.page.goto("/volumes");
    await expect(alex.page.getByRole("main")).not.toContainText(theirs);
    await alex.page.goto("/nodes");
    await expect(alex.page.getByRole("heading", { name: "worker-1" })).toBeVisible();
    await expect(alex.page.getByRole("main")).not.toContainText(theirs);
  });

  test("team-a's developer's event stream carries none of team-b's events", async ({ signedInAs, baseURL }, testInfo) => {
    const bea = await signedInAs("bea");
    const alex = await signedInAs("alex");
    const abort = new AbortController();
    const stream = await fetch(`${baseURL}/api/v1/events`, { signal: abort.signal, headers: { cookie: cookieHeaderOf(testInfo.project.name, "alex") } });
    const mine = uniqueName("alex-sees");
    const theirs = uniqueName("alex-never-sees");
    const theirId = await createIn(bea.request, "team-b", theirs);
    const myId = await createIn(alex.request, "team-a", mine);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    // Bea's sandbox was made first: by the time alex's own Created event arrives, hers would have too.
    while (!text.includes(`"sandboxId":"${myId}"`)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    abort.abort();
    expect([text.includes(`"sandboxId":"${myId}"`), text.includes(theirId)]).toEqual([true, false]);
  });

  test("a developer may not create a sandbox in another team's namespace: Kubernetes' words say why", async ({ signedInAs }) => {
    const alex = await signedInAs("alex");
    const response = await alex.request.post("/api/v1/sandboxes", { data: { name: uniqueName("intruder"), namespace: "team-b" } });
    const body = (await response.json()) as { code: string; detail: string };
    expect([response.status(), body.code, body.detail]).toEqual([
      403,
      "forbidden",
      'sandboxes.agents.x-k8s.io is forbidden: User "alex@berth.example" cannot create resource "sandboxes" in API group "agents.x-k8s.io" in the namespace "team-b". You need berth-developer in team-b.',
    ]);
  });

  test("the viewer sees both teams' sandboxes but no Create button, and a forged create is refused", async ({ signedInAs }) => {
    const alex = await signedInAs("alex");
    const victor = await signedInAs("victor");
    const name = uniqueName("viewed");
    await createIn(alex.request, "team-a", name);
    await victor.page.goto("/sandboxes");
    await expect(victor.page.getByRole("link", { name })).toBeVisible();
    await expect(victor.page.getByRole("link", { name: "Create sandbox" })).toHaveCount(0);
    await expect(victor.page.getByRole("main")).toContainText("you need berth-developer");
    const forged = await victor.request.post("/api/v1/sandboxes", { data: { name: uniqueName("forged"), namespace: "team-a" } });
    expect(forged.status()).toBe(403);
  });

  test("the simulator page is the platform admin's: a developer is told why not, and the admin gets the board", async ({ page, signedInAs }) => {
    const alex = await signedInAs("alex");
    await alex.page.goto("/simulator");
    await expect(alex.page.getByRole("main")).toContainText("The simulator is for platform admins");
    await page.goto("/simulator");
    await expect(page.getByRole("main")).not.toContainText("The simulator is for platform admins");
  });

  test("a cross-site post with a session cookie is refused before anything is done", async ({ baseURL }, testInfo) => {
    const post = (headers: Record<string, string>) =>
      fetch(`${baseURL}/api/v1/sandboxes`, { method: "POST", headers: { cookie: cookieHeaderOf(testInfo.project.name, "paula"), ...headers }, body: JSON.stringify({ name: uniqueName("csrf") }) });
    const asForm = await post({ origin: "https://evil.example", "content-type": "text/plain" });
    const asJson = await post({ origin: "https://evil.example", "content-type": "application/json" });
    expect([asForm.status, asJson.status, ((await asJson.json()) as { code: string }).code]).toEqual([415, 403, "cross-site-request"]);
  });
});
