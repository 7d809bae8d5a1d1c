import { expect, test } from "./fixtures.ts";
import { cookieHeaderOf } from "./signed-in.ts";

// The sandbox API over HTTP against a real server on the embedded cluster: what scripts and
// other tools rely on (DESIGN.md's API contract).

let counter = 0;
const uniqueName = () => `api-box-${Date.now().toString(36)}-${++counter}`;

test("POST /api/v1/sandboxes creates a sandbox and answers 201 with its record and Location", async ({ request }) => {
  const name = uniqueName();
  const response = await request.post("/api/v1/sandboxes", { data: { name } });
  const record = (await response.json()) as { id: string; name: string; namespace: string };
  expect([response.status(), response.headers()["location"], record.name, record.namespace]).toEqual([201, `/api/v1/sandboxes/${record.id}`, name, "default"]);
});

test("GET /api/v1/sandboxes/{id} returns the created sandbox", async ({ request }) => {
  const created = (await (await request.post("/api/v1/sandboxes", { data: { name: uniqueName() } })).json()) as { id: string };
  const read = await request.get(`/api/v1/sandboxes/${created.id}`);
  expect(((await read.json()) as { id: string }).id).toBe(created.id);
});

test("GET /api/v1/sandboxes lists sandboxes a page at a time", async ({ request }) => {
  await request.post("/api/v1/sandboxes", { data: { name: uniqueName() } });
  await request.post("/api/v1/sandboxes", { data: { name: uniqueName() } });
  const page = (await (await request.get("/api/v1/sandboxes?limit=1")).json()) as { items: unknown[]; nextCursor: string | null };
  expect([page.items.length, typeof page.nextCursor]).toEqual([1, "string"]);
});

test("an invalid spec is refused with problem+json naming both conflicting fields", async ({ request }) => {
  const response = await request.post("/api/v1/sandboxes", { data: { name: uniqueName(), workspace: { backend: "ephemeral", claim: { size: "5Gi" } } } });
  const body = (await response.json()) as { code: string; errors: { field: string }[] };
  expect([response.status(), response.headers()["content-type"], body.code]).toEqual([400, "application/problem+json", "invalid-spec"]);
  expect(body.errors.map((error) => error.field)).toEqual(expect.arrayContaining(["workspace.claim.size"]));
});

test("a body that is not JSON is refused with problem+json", async ({ request }) => {
  const response = await request.post("/api/v1/sandboxes", { data: Buffer.from("{not json"), headers: { "Content-Type": "application/json" } });
  expect([response.status(), ((await response.json()) as { code: string }).code]).toEqual([400, "invalid-json"]);
});

test("a name that is taken is refused with 409 naming the name field", async ({ request }) => {
  const name = uniqueName();
  await request.post("/api/v1/sandboxes", { data: { name } });
  const response = await request.post("/api/v1/sandboxes", { data: { name } });
  const body = (await response.json()) as { errors: { field: string }[] };
  expect([response.status(), body.errors[0]?.field]).toEqual([409, "name"]);
});

test("?dryRun=true returns the manifests and creates nothing", async ({ request }) => {
  const name = uniqueName();
  const response = await request.post("/api/v1/sandboxes?dryRun=true", { data: { name, workspace: { claim: { ownership: "retain" } } } });
  const body = (await response.json()) as { manifests: { sandbox: { metadata: { name: string } }; claims: { name: string }[] } };
  const listed = (await (await request.get("/api/v1/sandboxes?limit=500")).json()) as { items: { name: string }[] };
  expect([response.status(), body.manifests.sandbox.metadata.name, body.manifests.claims[0]?.name, listed.items.some((item) => item.name === name)]).toEqual([
    200,
    name,
    `workspace-${name}`,
    false,
  ]);
});

test("an unknown sandbox id answers 404 with problem+json", async ({ request }) => {
  const response = await request.get("/api/v1/sandboxes/00000000-0000-4000-8000-000000000000");
  expect([response.status(), response.headers()["content-type"]]).toEqual([404, "application/problem+json"]);
});

async function runningSandbox(request: import("@playwright/test").APIRequestContext): Promise<string> {
  const { id } = (await (await request.post("/api/v1/sandboxes", { data: { name: uniqueName() } })).json()) as { id: string };
  await expect
    .poll(async () => (await request.post(`/api/v1/sandboxes/${id}/exec`, { data: { command: ["true"] } })).status(), { timeout: 20_000 })
    .toBe(200);
  return id;
}

test("POST /api/v1/sandboxes/{id}/exec runs a command and returns exit code and output", async ({ request }) => {
  const id = await runningSandbox(request);
  const response = await request.post(`/api/v1/sandboxes/${id}/exec`, { data: { command: ["sh", "-c", "echo hi > /sandbox/session.txt && cat /sandbox/session.txt; exit 2"] } });
  expect(await response.json()).toEqual({ exitCode: 2, stdout: "hi\n", stderr: "" });
});

test("exec without a command is refused with problem+json naming the command field", async ({ request }) => {
  // A sandbox that exists: for one that does not (or that the caller may not see), the answer is 404 before any body is read.
  const id = await runningSandbox(request);
  const response = await request.post(`/api/v1/sandboxes/${id}/exec`, { data: { command: [] } });
  const body = (await response.json()) as { errors: { field: string }[] };
  expect([response.status(), body.errors[0]?.field]).toEqual([400, "command"]);
});

test("stop answers 202 and exec is then refused with 409 until start", async ({ request }) => {
  const id = await runningSandbox(request);
  expect((await request.post(`/api/v1/sandboxes/${id}/stop`)).status()).toBe(202);
  await expect.poll(async () => (await request.post(`/api/v1/sandboxes/${id}/exec`, { data: { command: ["true"] } })).status()).toBe(409);
  expect((await request.post(`/api/v1/sandboxes/${id}/start`)).status()).toBe(202);
  await expect.poll(async () => (await request.post(`/api/v1/sandboxes/${id}/exec`, { data: { command: ["true"] } })).status(), { timeout: 20_000 }).toBe(200);
});

test("DELETE /api/v1/sandboxes/{id} deletes it and says which claims were kept or removed", async ({ request }) => {
  const name = uniqueName();
  const { id } = (await (await request.post("/api/v1/sandboxes", { data: { name, workspace: { claim: { ownership: "retain" } } } })).json()) as { id: string };
  const response = await request.delete(`/api/v1/sandboxes/${id}`);
  const body = (await response.json()) as { keptClaims: string[]; record: { phase: string } };
  expect([response.status(), body.keptClaims, body.record.phase]).toEqual([200, [`workspace-${name}`], "Deleted"]);
});

test("a created sandbox reaches Ready, and its timeline says how", async ({ request }) => {
  const { id } = (await (await request.post("/api/v1/sandboxes", { data: { name: uniqueName() } })).json()) as { id: string };
  await expect.poll(async () => ((await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as { phase: string }).phase, { timeout: 20_000 }).toBe("Ready");
  const { items } = (await (await request.get(`/api/v1/sandboxes/${id}/timeline`)).json()) as { items: { reason: string }[] };
  expect([items[0]?.reason, items.at(-1)?.reason]).toEqual(["Created", "Ready"]);
});

test("GET /api/v1/events streams the sandbox's changes as Server-Sent Events with ids", async ({ request, baseURL }, testInfo) => {
  const abort = new AbortController();
  const response = await fetch(`${baseURL}/api/v1/events`, { signal: abort.signal, headers: { cookie: cookieHeaderOf(testInfo.project.name, "paula") } });
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const { id } = (await (await request.post("/api/v1/sandboxes", { data: { name: uniqueName() } })).json()) as { id: string };
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + 20_000;
  while (!text.includes(`"sandboxId":"${id}","type":"Lifecycle","reason":"Ready"`) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  abort.abort();
  const readyBlock = text.split("\n\n").find((block) => block.includes(`"sandboxId":"${id}"`) && block.includes('"reason":"Ready"'));
  expect(readyBlock).toMatch(/^id: \d+$/m);
});

test("GET /api/v1/openapi.json documents the API as OpenAPI 3.1", async ({ request }) => {
  const document = (await (await request.get("/api/v1/openapi.json")).json()) as { openapi: string; paths: Record<string, unknown> };
  expect([document.openapi, "/api/v1/sandboxes" in document.paths]).toEqual(["3.1.0", true]);
});

type VolumePage = { items: { name: string; sandbox: { id: string } | null; ownership: string; usage: string }[]; nextCursor: string | null };

/** Every volume, following the cursor. */
async function allVolumes(request: import("@playwright/test").APIRequestContext) {
  const volumes: VolumePage["items"] = [];
  let cursor: string | null = null;
  do {
    const page = (await (await request.get(`/api/v1/volumes?limit=500${cursor ? `&cursor=${cursor}` : ""}`)).json()) as VolumePage;
    volumes.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return volumes;
}

test("GET /api/v1/volumes lists a pvc sandbox's workspace claim", async ({ request }) => {
  const name = uniqueName();
  const { id } = (await (await request.post("/api/v1/sandboxes", { data: { name } })).json()) as { id: string };
  await expect.poll(async () => (await allVolumes(request)).find((volume) => volume.sandbox?.id === id)?.name, { timeout: 20_000 }).toBe(`workspace-${name}`);
});

test("GET /api/v1/volumes shows no claim for an ephemeral sandbox", async ({ request }) => {
  const { id } = (await (await request.post("/api/v1/sandboxes", { data: { name: uniqueName(), workspace: { backend: "ephemeral" } } })).json()) as { id: string };
  await expect.poll(async () => ((await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as { phase: string }).phase, { timeout: 20_000 }).toBe("Ready");
  expect((await allVolumes(request)).filter((volume) => volume.sandbox?.id === id)).toEqual([]);
});

test("GET /metrics answers in the Prometheus text format, counting sandboxes by phase", async ({ request }) => {
  const { id } = (await (await request.post("/api/v1/sandboxes", { data: { name: uniqueName() } })).json()) as { id: string };
  await expect.poll(async () => ((await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as { phase: string }).phase, { timeout: 20_000 }).toBe("Ready");
  const response = await request.get("/metrics");
  expect([response.headers()["content-type"], /^berth_sandboxes\{phase="Ready"\} [1-9]/m.test(await response.text())]).toEqual(["text/plain; version=0.0.4; charset=utf-8", true]);
});

test("POST /api/v1/sandboxes/{id}/checkpoint runs the checkpoint and answers how it went", async ({ request }) => {
  const { id } = (await (await request.post("/api/v1/sandboxes", { data: { name: uniqueName(), disruptionPolicy: { checkpointHook: ["sh", "-c", "echo saved > /sandbox/saved.txt"] } } })).json()) as { id: string };
  await expect.poll(async () => ((await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as { phase: string }).phase, { timeout: 20_000 }).toBe("Ready");
  const checkpoint = (await (await request.post(`/api/v1/sandboxes/${id}/checkpoint`)).json()) as { result: string; markerWritten: boolean };
  expect([checkpoint.result, checkpoint.markerWritten]).toEqual(["Succeeded", true]);
});

test("GET /api/v1/nodes lists the nodes with the sandboxes on them", async ({ request }) => {
  const { id } = (await (await request.post("/api/v1/sandboxes", { data: { name: uniqueName() } })).json()) as { id: string };
  await expect.poll(async () => ((await (await request.get(`/api/v1/sandboxes/${id}`)).json()) as { phase: string }).phase, { timeout: 20_000 }).toBe("Ready");
  const { items } = (await (await request.get("/api/v1/nodes?limit=500")).json()) as { items: { name: string; sandboxes: { id: string }[] }[] };
  expect(items.filter((node) => node.sandboxes.some((sandbox) => sandbox.id === id)).length).toBe(1);
});

test("GET /api/v1/nodes/{name}/maintenance/preview of an unknown node answers 404 with problem+json", async ({ request }) => {
  const response = await request.get("/api/v1/nodes/no-such-node/maintenance/preview");
  expect([response.status(), response.headers()["content-type"]]).toEqual([404, "application/problem+json"]);
});

test("POST /api/v1/nodes/{name}/maintenance refuses bad options with problem+json naming the field", async ({ request }) => {
  const response = await request.post("/api/v1/nodes/worker-1/maintenance", { data: { parallelism: 0 } });
  const body = (await response.json()) as { errors?: { field: string }[] };
  expect([response.status(), body.errors?.map((error) => error.field)]).toEqual([400, ["parallelism"]]);
});

test("POST /api/v1/nodes/{name}/maintenance of an unknown node answers 404", async ({ request }) => {
  expect((await request.post("/api/v1/nodes/no-such-node/maintenance", { data: {} })).status()).toBe(404);
});
