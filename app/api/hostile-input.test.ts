import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Person } from "@/lib/domain/person.ts";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import { demoPersonIdentity } from "@/lib/identity/demo-people.ts";
import { eventually } from "@/lib/sim/testing/eventually.ts";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/peer-address.ts";
import { startApiUnderTest, type ApiUnderTest } from "./testing/api-under-test.ts";

// What one person can send that must not hurt anyone else: bodies too large to read, text no
// Kubernetes object can hold, and asks larger than the platform team allows. Each is refused
// with a problem naming the field or the limit, and leaves nothing behind.

const person = demoPersonIdentity;
const alex = person("alex");
const bea = person("bea");

const MAX_BODY_BYTES = 64 * 1024;
const MAX_PER_NAMESPACE = 4;
const CREATES_PER_MINUTE = 20;
const SIGN_INS_PER_MINUTE = 5;
const STREAMS_PER_PERSON = 2;

let api: ApiUnderTest;
let count = 0;
const named = (base: string) => `${base}-${Date.now().toString(36)}-${++count}`;

beforeAll(async () => {
  api = await startApiUnderTest({ BERTH_SIM_CLOCK_SCALE: "20", BERTH_MAX_BODY_BYTES: String(MAX_BODY_BYTES), BERTH_MAX_SANDBOXES_PER_NAMESPACE: String(MAX_PER_NAMESPACE), BERTH_CREATES_PER_MINUTE: String(CREATES_PER_MINUTE), BERTH_STREAMS_PER_PERSON: String(STREAMS_PER_PERSON), BERTH_SIGN_INS_PER_MINUTE: String(SIGN_INS_PER_MINUTE) });
  await api.untilLive();
}, 120_000);
afterAll(() => api?.stop(), 120_000);

const errorsOf = (json: unknown) => (json as { errors?: { field: string; code: string; message: string }[] }).errors ?? [];

/** A body of `size` bytes, handed over in chunks as the server pulls them; `pulled()` says how much it took. */
function streamedBody(size: number, chunk = 16 * 1024) {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      const bytes = new Uint8Array(Math.min(chunk, size - sent)).fill(0x20);
      sent += bytes.byteLength;
      controller.enqueue(bytes);
    },
  });
  return { stream, pulled: () => sent };
}

describe("a request body larger than the cap", () => {
  it("is 413 when its declared length is over the cap, before a byte of it is read", async () => {
    const body = streamedBody(100 * 1024 * 1024);
    const answer = await api.call("createSandbox", alex, { body: body.stream, headers: { "content-length": String(100 * 1024 * 1024) } });
    expect(answer.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(64 * 1024);
  });

  it("is cut off at the cap when it comes without a length", async () => {
    const body = streamedBody(10 * 1024 * 1024);
    const answer = await api.call("createSandbox", alex, { body: body.stream });
    expect(answer.status).toBe(413);
    expect(body.pulled()).toBeLessThan(MAX_BODY_BYTES + 64 * 1024);
  });

  it("names the limit and how a platform team changes it", async () => {
    const answer = await api.call("createSandbox", alex, { body: `{"name":"${"x".repeat(MAX_BODY_BYTES)}"}` });
    expect(answer.json).toMatchObject({ status: 413, code: "body-too-large", detail: expect.stringMatching(/larger than 64 KiB.*BERTH_MAX_BODY_BYTES/) });
  });

  it("is refused before anyone asks who sent it to be read: a caller who is not signed in gets 401", async () => {
    const answer = await api.call("createSandbox", null, { body: "x".repeat(MAX_BODY_BYTES * 2) });
    expect(answer.status).toBe(401);
  });
});

describe("text no Kubernetes object can hold", () => {
  it("is refused when an environment value holds a NUL, naming the field", async () => {
    const name = named("nul");
    const answer = await api.call("createSandbox", alex, { body: { name, namespace: "team-a", env: [{ name: "KEY", value: "a\u0000b" }] } });
    expect(answer.status).toBe(400);
    expect(errorsOf(answer.json)).toEqual([{ field: "env[0].value", code: "text.forbidden-character", message: expect.stringContaining("contains a NUL character") }]);
  });

  it("is refused when a command holds half of a surrogate pair, naming the field", async () => {
    const answer = await api.call("createSandbox", alex, { body: `{"name":"${named("surrogate")}","namespace":"team-a","command":["echo","\\ud800"]}` });
    expect(answer.status).toBe(400);
    expect(errorsOf(answer.json)).toEqual([{ field: "command[1]", code: "text.forbidden-character", message: expect.stringContaining("surrogate pair") }]);
  });

  it("is refused in the dry run exactly as in the create", async () => {
    const body = { name: named("dry"), namespace: "team-a", env: [{ name: "KEY", value: "\u0000" }] };
    const dryRun = await api.call("createSandbox", alex, { query: { dryRun: "true" }, body });
    expect(dryRun.status).toBe(400);
    expect(errorsOf(dryRun.json)).toEqual(errorsOf((await api.call("createSandbox", alex, { body })).json));
  });

  it("is refused in a query parameter too", async () => {
    const answer = await api.call("listSandboxes", alex, { query: { namespace: "team-a\u0000" } });
    expect(answer.status).toBe(400);
    expect(errorsOf(answer.json)).toMatchObject([{ field: "namespace", code: "text.forbidden-character" }]);
  });

  it("leaves no sandbox behind", async () => {
    const name = named("nul-left");
    await api.call("createSandbox", alex, { body: { name, namespace: "team-a", env: [{ name: "K", value: "\u0000" }] } });
    expect(await api.liveRecordsNamed(name)).toEqual([]);
  });

  it("includes bytes that are not UTF-8", async () => {
    const answer = await api.call("createSandbox", alex, { body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) });
    expect(answer.json).toMatchObject({ status: 400, code: "invalid-encoding" });
  });

  it("includes JSON nested deeper than any request of the API", async () => {
    const answer = await api.call("createSandbox", alex, { body: `{"name":${"[".repeat(10_000)}${"]".repeat(10_000)}}` });
    expect(answer.json).toMatchObject({ status: 400, code: "too-deep" });
  });
});

describe("a sandbox that asks for more than the gateway allows", () => {
  it("is refused for 100,000 CPUs, naming the field and the limit", async () => {
    const answer = await api.call("createSandbox", alex, { body: { name: named("cpus"), namespace: "team-a", resources: { requests: { cpu: "100000" } } } });
    expect(answer.status).toBe(400);
    expect(errorsOf(answer.json)).toEqual([{ field: "resources.requests.cpu", code: "limit.cpu", message: expect.stringContaining("more than this gateway allows (16)") }]);
  });

  it("is refused for a 1 EiB claim", async () => {
    const answer = await api.call("createSandbox", alex, { body: { name: named("eib"), namespace: "team-a", workspace: { claim: { size: "1Ei" } } } });
    expect(errorsOf(answer.json)).toMatchObject([{ field: "workspace.claim.size", code: "limit.claim-size" }]);
  });

  it("is refused for a 31-year grace period", async () => {
    const answer = await api.call("createSandbox", alex, { body: { name: named("grace"), namespace: "team-a", disruptionPolicy: { terminationGracePeriodSeconds: 31 * 365 * 86_400 } } });
    expect(errorsOf(answer.json)).toMatchObject([{ field: "disruptionPolicy.terminationGracePeriodSeconds", code: "limit.grace-period" }]);
  });
});

describe("the sandboxes-per-namespace quota", () => {
  const fill = async () => {
    for (let index = (await api.runtime.store.sandboxes.countLiveIn("team-b")); index < MAX_PER_NAMESPACE; index++) {
      const answer = await api.call("createSandbox", bea, { body: { name: named("quota"), namespace: "team-b", workspace: { backend: "ephemeral" } } });
      expect(answer.status).toBe(201);
    }
  };

  it("refuses one more sandbox with 403, naming the namespace and the limit", async () => {
    await fill();
    const answer = await api.call("createSandbox", bea, { body: { name: named("over"), namespace: "team-b", workspace: { backend: "ephemeral" } } });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ code: "quota-exceeded", errors: [{ field: "namespace", code: "limit.too-many", message: expect.stringContaining(`namespace team-b already has ${MAX_PER_NAMESPACE} sandboxes`) }] });
  });

  it("is refused in the dry run as in the create", async () => {
    await fill();
    const answer = await api.call("createSandbox", bea, { query: { dryRun: "true" }, body: { name: named("over-dry"), namespace: "team-b", workspace: { backend: "ephemeral" } } });
    expect(answer.json).toMatchObject({ status: 403, code: "quota-exceeded" });
  });

  it("leaves nothing of the refused create: no record, and the count as it was", async () => {
    await fill();
    const name = named("over-left");
    await api.call("createSandbox", bea, { body: { name, namespace: "team-b", workspace: { backend: "ephemeral" } } });
    expect(await api.liveRecordsNamed(name)).toEqual([]);
    expect(await api.runtime.store.sandboxes.countLiveIn("team-b")).toBe(MAX_PER_NAMESPACE);
  });

  it("is per namespace: another namespace still has room", async () => {
    await fill();
    const answer = await api.call("createSandbox", alex, { body: { name: named("elsewhere"), namespace: "team-a", workspace: { backend: "ephemeral" } } });
    expect(answer.status).toBe(201);
  });
});

describe("someone not signed in who tries too many sign-ins", () => {
  const signInFrom = (address: string) => api.call("signInWithToken", null, { body: { token: "guess" }, headers: { [PEER_ADDRESS_HEADER]: address } });

  it("is refused with 429 once past the sign-ins per minute from their address, naming the limit", async () => {
    for (let index = 0; index < SIGN_INS_PER_MINUTE; index++) await signInFrom("203.0.113.7");
    const refused = await signInFrom("203.0.113.7");
    expect([refused.status, refused.json]).toEqual([429, expect.objectContaining({ code: "rate-limited", detail: expect.stringContaining(`limit of ${SIGN_INS_PER_MINUTE} sign-in attempts per minute`) })]);
  });

  it("does not hold back sign-ins from another address", async () => {
    for (let index = 0; index < SIGN_INS_PER_MINUTE; index++) await signInFrom("203.0.113.8");
    expect((await signInFrom("203.0.113.9")).status).not.toBe(429);
  });
});

describe("a person who sends too many requests", () => {
  // People of team-a of their own, so that no other test spends their budget.
  const rita: Person = { username: "rita@berth.example", groups: ["team-a"] };
  const sam: Person = { username: "sam@berth.example", groups: ["team-a"] };
  const dryRunCreate = (as: Person) => api.call("createSandbox", as, { query: { dryRun: "true" }, body: { name: named("rate"), namespace: "team-a", workspace: { backend: "ephemeral" } } });

  it("is refused with 429 and Retry-After once past the creates per minute, naming the limit", async () => {
    for (let index = 0; index < CREATES_PER_MINUTE; index++) expect((await dryRunCreate(rita)).status).toBe(200);
    const refused = await dryRunCreate(rita);
    expect({ status: refused.status, retryAfter: Number(refused.headers.get("retry-after")) > 0, problem: refused.json }).toEqual({
      status: 429,
      retryAfter: true,
      problem: expect.objectContaining({ code: "rate-limited", detail: expect.stringContaining(`limit of ${CREATES_PER_MINUTE} sandboxes created per minute`) }),
    });
  });

  it("does not hold back anyone else", async () => {
    expect((await dryRunCreate(sam)).status).toBe(200);
  });

  it("may not open more event streams than the cap; one more is 429", async () => {
    const open = [api.runtime.rateLimits.openStream(rita.username), api.runtime.rateLimits.openStream(rita.username)];
    const refused = await api.call("events", rita);
    open.forEach((close) => close());
    expect([refused.status, (refused.json as { code: string }).code]).toEqual([429, "rate-limited"]);
  });

  it("may open a stream again once one of theirs has closed", async () => {
    const close = api.runtime.rateLimits.openStream(rita.username);
    const answer = await api.call("events", rita);
    close();
    expect(answer.status).toBe(200);
  });
});


describe("/api/health", () => {
  it("tells a caller who is not signed in whether Berth serves, and nothing more", async () => {
    const answer = await api.call("health", null);
    expect([answer.status, answer.json]).toEqual([200, { status: "ok" }]);
  });

  it("tells a signed-in person what Berth is connected to", async () => {
    expect((await api.call("health", alex)).json).toMatchObject({ status: "ok", cluster: { mode: "embedded", connected: true }, store: { kind: "pglite", ok: true } });
  });
});

describe("a secret value in a sandbox's environment", () => {
  const tess: Person = { username: "tess@berth.example", groups: ["team-a"] };
  const SECRET = "sk-live-never-shown";
  const spec = (name: string) => ({ name, namespace: "team-a", workspace: { backend: "ephemeral" }, env: [{ name: "API_KEY", value: SECRET, secret: true }] });
  let created: SandboxRecord;
  beforeAll(async () => {
    const answer = await api.call("createSandbox", tess, { body: spec(named("secret")) });
    expect(answer.status).toBe(201);
    created = answer.json as SandboxRecord;
  });

  it("is not in the create's answer, the list or the sandbox's own answer", async () => {
    const answers = [JSON.stringify(created), (await api.call("listSandboxes", tess, { query: { namespace: "team-a" } })).text, (await api.call("getSandbox", tess, { params: { id: created.id } })).text];
    expect(answers.map((text) => text.includes(SECRET))).toEqual([false, false, false]);
  });

  it("is shown as set, without its value, in a dry run's manifests", async () => {
    const answer = await api.call("createSandbox", tess, { query: { dryRun: "true" }, body: spec(named("secret-dry")) });
    expect(answer.status, answer.text).toBe(200);
    expect([answer.text.includes(SECRET), (answer.json as { manifests: { secret: { stringData: unknown } } }).manifests.secret.stringData]).toEqual([false, { API_KEY: "(set)" }]);
  });

  it("is what the agent sees in its environment", async () => {
    await eventually(() => {
      if (api.runtime.live.get(created.id)?.phase !== "Ready") throw new Error("not Ready yet");
    }, { timeoutMs: 30_000 });
    const answer = await api.call("execInSandbox", tess, { params: { id: created.id }, body: { command: ["sh", "-c", "printf %s \"$API_KEY\""], timeoutSeconds: 10 } });
    expect((answer.json as { stdout: string }).stdout).toBe(SECRET);
  });
});

describe("a command the container cannot start", () => {
  it("is refused with 400 naming command[0], in the container runtime's words", async () => {
    const created = (await api.call("createSandbox", alex, { body: { name: named("no-tool"), namespace: "team-a", workspace: { backend: "ephemeral" } } })).json as SandboxRecord;
    await eventually(() => {
      if (api.runtime.live.get(created.id)?.phase !== "Ready") throw new Error("not Ready yet");
    }, { timeoutMs: 30_000 });
    const answer = await api.call("execInSandbox", alex, { params: { id: created.id }, body: { command: ["no-such-tool", "--help"], timeoutSeconds: 10 } });
    expect({ status: answer.status, errors: errorsOf(answer.json) }).toEqual({
      status: 400,
      errors: [{ field: "command[0]", code: "command.not-started", message: expect.stringContaining('exec: "no-such-tool": executable file not found in $PATH') }],
    });
  });
});
