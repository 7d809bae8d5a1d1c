import { CoreV1Api, type V1PersistentVolumeClaim } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "@/lib/domain/audit.ts";
import type { Page, SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import { demoPersonIdentity } from "@/lib/identity/demo-people.ts";
import { connectionFor } from "@/lib/kube/acting-as.ts";
import { discoverSandboxApi } from "@/lib/kube/cluster-connection.ts";
import { sandboxResources, type SandboxResources } from "@/lib/kube/sandbox-resources.ts";
import { eventually } from "@/lib/sim/testing/eventually.ts";
import { startApiUnderTest, type ApiUnderTest } from "./testing/api-under-test.ts";

// Each way in that once let someone do harm through Berth, tried again the same way. Before
// sign-in and tenancy, every one of these worked: a sandbox in kube-system, a cross-site form
// that created and ran things, another team's sandbox adopted and its secrets read, a
// production claim garbage-collected with a sandbox, an audit log that believed a header.

const person = demoPersonIdentity;
const alex = person("alex");
const bea = person("bea");
const paula = person("paula");
/** A namespace that exists and that Berth does not manage: its own. */
const UNMANAGED = "berth-system";

let api: ApiUnderTest;
/** The cluster as the platform admin uses it with kubectl: not through Berth. */
let kubectl: SandboxResources;
let sandboxApiVersion: string;

let count = 0;
const named = (base: string) => `${base}-${Date.now().toString(36)}-${++count}`;

beforeAll(async () => {
  api = await startApiUnderTest({ BERTH_SIM_CLOCK_SCALE: "20" });
  const asPaula = connectionFor(api.runtime.cluster.connection, { kind: "impersonate", person: paula });
  const discovery = await discoverSandboxApi(asPaula);
  if (!discovery.ok) throw new Error(discovery.message);
  sandboxApiVersion = discovery.version;
  kubectl = sandboxResources(asPaula, discovery.version);
  await api.untilLive();
}, 120_000);
afterAll(() => api?.stop(), 120_000);


describe("a sandbox in a namespace Berth does not manage", () => {
  it("is refused at the namespace field, even for a platform admin whom RBAC would let", async () => {
    const answer = await api.call("createSandbox", paula, { body: { name: named("system"), namespace: UNMANAGED, workspace: { backend: "ephemeral" } } });
    expect([answer.status, (answer.json as { errors?: { field: string; message: string }[] }).errors?.[0]]).toEqual([
      400,
      expect.objectContaining({ field: "namespace", message: expect.stringContaining(`namespace ${UNMANAGED} is not one Berth manages`) }),
    ]);
  });

  it("leaves nothing behind when refused", async () => {
    const name = named("nothing");
    await api.call("createSandbox", paula, { body: { name, namespace: UNMANAGED, workspace: { backend: "ephemeral" } } });
    expect([await api.liveRecordsNamed(name), await kubectl.readSandbox(UNMANAGED, name)]).toEqual([[], null]);
  });
});

describe("a request another site makes the browser send", () => {
  it("is refused when its body is text/plain, as a form can send it", async () => {
    const name = named("forged");
    const answer = await api.call("createSandbox", alex, { body: JSON.stringify({ name, namespace: "team-a", workspace: { backend: "ephemeral" } }), headers: { "content-type": "text/plain" } });
    expect([answer.status, await api.liveRecordsNamed(name)]).toEqual([415, []]);
  });

  it("is refused when it comes from another origin", async () => {
    const name = named("forged");
    const answer = await api.call("createSandbox", alex, { body: { name, namespace: "team-a", workspace: { backend: "ephemeral" } }, headers: { origin: "https://attacker.example" } });
    expect([answer.status, await api.liveRecordsNamed(name)]).toEqual([403, []]);
  });
});

describe("a Sandbox made with kubectl, outside Berth", () => {
  const madeOutsideBerth = (namespace: string, name: string) =>
    kubectl.createSandbox({
      apiVersion: `agents.x-k8s.io/${sandboxApiVersion}`,
      kind: "Sandbox",
      metadata: { name, namespace },
      spec: { podTemplate: { spec: { containers: [{ name: "agent", image: "busybox:1.36", command: ["sleep", "infinity"], env: [{ name: "API_KEY", value: "team-b-secret" }] }] } } },
    } as Parameters<SandboxResources["createSandbox"]>[0]);

  const adopted = (namespace: string, name: string) =>
    eventually(async () => {
      const record = (await api.liveRecordsNamed(name)).find((one) => one.namespace === namespace);
      if (!record) throw new Error(`${namespace}/${name} is not adopted yet`);
      return record;
    }, { timeoutMs: 30_000, intervalMs: 100 });

  it("is not adopted in a namespace Berth does not manage", async () => {
    const outside = named("outside");
    const inside = named("inside");
    await madeOutsideBerth(UNMANAGED, outside);
    // Made after it, and adopted: the reconciler has looked at both.
    await madeOutsideBerth("team-b", inside);
    await adopted("team-b", inside);
    expect(await api.liveRecordsNamed(outside)).toEqual([]);
  });

  it("is adopted once its namespace is made one Berth manages, and not before", async () => {
    const managed = api.runtime.config.namespaces;
    if (managed.kind !== "labelled") throw new Error("the embedded default manages labelled namespaces");
    const core = api.clusterAdmin().kubeConfig.makeApiClient(CoreV1Api);
    const namespace = named("joins");
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    const [early, marker] = [named("early"), named("marker")];
    await madeOutsideBerth(namespace, early);
    await madeOutsideBerth("team-b", marker);
    await adopted("team-b", marker);
    const before = await api.liveRecordsNamed(early);
    await core.patchNamespace({ name: namespace, body: [{ op: "add", path: "/metadata/labels", value: { [managed.label]: "true" } }] });
    expect([before, (await adopted(namespace, early)).origin]).toEqual([[], "cluster"]);
  });

  describe("in another team's namespace", () => {
    let record: SandboxRecord;
    beforeAll(async () => {
      const name = named("team-b-agent");
      await madeOutsideBerth("team-b", name);
      record = await adopted("team-b", name);
    });

    it("is not in the list of a developer of another team", async () => {
      const page = (await api.call("listSandboxes", alex, { query: { limit: "200" } })).json as Page<SandboxRecord>;
      expect(page.items.map((item) => item.id)).not.toContain(record.id);
    });

    it("is not given away by a 304 to a developer of another team who sends its team's list ETag", async () => {
      const etag = (await api.call("listSandboxes", bea, { query: { limit: "200" } })).headers.get("etag")!;
      const answer = await api.call("listSandboxes", alex, { query: { limit: "200" }, headers: { "If-None-Match": etag } });
      expect([answer.status, (answer.json as Page<SandboxRecord>).items.map((item) => item.id)]).toEqual([200, expect.not.arrayContaining([record.id])]);
    });

    it("is answered 304 to its own team while their list is unchanged", async () => {
      // Retried: a status written between the two reads changes the page, rightly.
      await eventually(async () => {
        const etag = (await api.call("listSandboxes", bea, { query: { limit: "200" } })).headers.get("etag")!;
        expect((await api.call("listSandboxes", bea, { query: { limit: "200" }, headers: { "If-None-Match": etag } })).status).toBe(304);
      }, { timeoutMs: 30_000, intervalMs: 100 });
    });

    it("is no sandbox at all to run a command in, for a developer of another team", async () => {
      const answer = await api.call("execInSandbox", alex, { params: { id: record.id }, body: { command: ["sh", "-c", "echo $API_KEY"] } });
      expect([answer.status, answer.text]).toEqual([404, expect.not.stringContaining("team-b-secret")]);
    });

    it("runs commands for its own team", async () => {
      await eventually(async () => {
        if (((await api.call("getSandbox", bea, { params: { id: record.id } })).json as SandboxRecord).phase !== "Ready") throw new Error("not Ready yet");
      }, { timeoutMs: 30_000, intervalMs: 100 });
      const answer = await api.call("execInSandbox", bea, { params: { id: record.id }, body: { command: ["sh", "-c", "echo $API_KEY"] } });
      expect([answer.status, (answer.json as { stdout?: string }).stdout]).toEqual([200, "team-b-secret\n"]);
    });
  });
});

describe("a claim Berth did not make, such as a database's", () => {
  let claim: string;
  const claimNow = async (): Promise<V1PersistentVolumeClaim> => (await kubectl.readClaim("team-a", claim))!;
  const mounting = (ownership: string, name = named("db-user")) => ({ body: { name, namespace: "team-a", workspace: { claim: { ownership, claimName: claim } } } });

  beforeAll(async () => {
    claim = named("db-data");
    await kubectl.createClaim({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: claim, namespace: "team-a", labels: {} },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, storageClassName: "portable" },
    });
  });

  it("cannot be made to go with a sandbox (ownership delete): 409, naming the claim", async () => {
    const answer = await api.call("createSandbox", alex, mounting("delete"));
    expect([answer.status, answer.text]).toEqual([409, expect.stringContaining(`claim team-a/${claim} already exists: ownership delete would delete it`)]);
  });

  it("cannot be taken as a retained claim of Berth's: 409", async () => {
    expect((await api.call("createSandbox", alex, mounting("retain"))).status).toBe(409);
  });

  it("is left as it was by the refusals: no owner, no label of Berth's", async () => {
    await api.call("createSandbox", alex, mounting("delete"));
    const now = await claimNow();
    expect([now.metadata?.ownerReferences ?? [], Object.keys(now.metadata?.labels ?? {})]).toEqual([[], []]);
  });

  it("cannot be mounted from another team's namespace by its name: Kubernetes refuses the create", async () => {
    expect((await api.call("createSandbox", bea, mounting("existing"))).status).toBe(403);
  });

  it("is still there, unowned, after a sandbox that mounted it as existing is deleted", async () => {
    const created = await api.call("createSandbox", alex, mounting("existing"));
    expect(created.status, created.text).toBe(201);
    expect((await api.call("deleteSandbox", alex, { params: { id: (created.json as SandboxRecord).id } })).status).toBe(200);
    const now = await claimNow();
    expect([now.metadata?.deletionTimestamp, now.metadata?.ownerReferences ?? []]).toEqual([undefined, []]);
  });
});

describe("who the audit log says made a change", () => {
  it("is the person the proxy vouched for, not a header the caller added", async () => {
    const name = named("audited");
    await api.call("createSandbox", alex, { body: { name, namespace: "team-b", workspace: { backend: "ephemeral" } }, headers: { "x-forwarded-user": paula.username } });
    const entries = (await api.call("audit", paula, { query: { action: "sandbox.create" } })).json as Page<AuditEntry>;
    const entry = entries.items.find((one) => one.targetId === `team-b/${name}`);
    expect([entry?.actor, entry?.decision]).toEqual([alex.username, "Denied"]);
  });

  it("is nobody when the proxy's headers come from somewhere the proxy is not", async () => {
    const answer = await api.call("whoAmI", null, { headers: { "x-remote-user": paula.username, "x-remote-group": "platform-admins", "x-berth-peer-address": "203.0.113.9" } });
    expect(answer.status).toBe(401);
  });
});
