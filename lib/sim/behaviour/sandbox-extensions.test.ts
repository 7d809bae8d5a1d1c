import { NetworkingV1Api, type CoreV1Event } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, eventuallyGone } from "../testing/eventually.ts";
import { startSimFixture, type SimFixture } from "../testing/sim-fixture.ts";

// agent-sandbox's extensions as its controllers (v0.5.6) run them: SandboxTemplates with their
// network policies, SandboxWarmPools kept at their size, SandboxClaims handed a pool's Sandbox or
// a cold-started one — checked through @kubernetes/client-node against the simulated cluster.

let sim: SimFixture;
let networking: NetworkingV1Api;
beforeAll(async () => {
  sim = await startSimFixture();
  networking = sim.config.makeApiClient(NetworkingV1Api);
});
afterAll(() => sim.cluster.stop());

type Condition = { type: string; status: string; reason?: string; message?: string };
type Meta = { name: string; namespace?: string; uid?: string; labels?: Record<string, string>; annotations?: Record<string, string>; ownerReferences?: { kind: string; name: string; uid: string; controller?: boolean }[] };
type Resource = { metadata: Meta; spec: Record<string, unknown>; status?: Record<string, unknown> & { conditions?: Condition[] } };

const EXTENSIONS = "extensions.agents.x-k8s.io";
const plural = { template: "sandboxtemplates", pool: "sandboxwarmpools", claim: "sandboxclaims" } as const;
const WARM_POOL_LABEL = "agents.x-k8s.io/warm-pool-sandbox";
const IMAGE = "ghcr.io/nvidia/openshell-community/sandboxes/base:latest";

let namespaces = 0;
/** Each test in a namespace of its own, so pools and claims do not meet. */
async function aNamespace(): Promise<string> {
  const name = `ext-${++namespaces}`;
  await sim.core.createNamespace({ body: { metadata: { name } } });
  return name;
}

function aTemplate(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: `${EXTENSIONS}/v1beta1`,
    kind: "SandboxTemplate",
    metadata: { name },
    spec: {
      podTemplate: { metadata: { labels: { app: "agent" } }, spec: { containers: [{ name: "agent", image: IMAGE, command: ["sleep", "infinity"] }] } },
      ...spec,
    },
  };
}

const aWarmPool = (name: string, template: string, replicas: number, spec: Record<string, unknown> = {}) => ({
  apiVersion: `${EXTENSIONS}/v1beta1`,
  kind: "SandboxWarmPool",
  metadata: { name },
  spec: { replicas, sandboxTemplateRef: { name: template }, ...spec },
});

const aClaim = (name: string, pool: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: `${EXTENSIONS}/v1beta1`,
  kind: "SandboxClaim",
  metadata: { name },
  spec: { warmPoolRef: { name: pool }, ...spec },
});

async function create(kind: keyof typeof plural, namespace: string, body: { metadata: { name: string } }): Promise<Resource> {
  return (await sim.custom.createNamespacedCustomObject({ group: EXTENSIONS, version: "v1beta1", namespace, plural: plural[kind], body })) as Resource;
}

async function read(kind: keyof typeof plural, namespace: string, name: string): Promise<Resource> {
  return (await sim.custom.getNamespacedCustomObject({ group: EXTENSIONS, version: "v1beta1", namespace, plural: plural[kind], name })) as Resource;
}

async function sandboxesIn(namespace: string): Promise<Resource[]> {
  const listed = (await sim.custom.listNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", namespace, plural: "sandboxes" })) as { items: Resource[] };
  return listed.items.filter((sandbox) => !(sandbox.metadata as { deletionTimestamp?: string }).deletionTimestamp);
}

async function readSandbox(namespace: string, name: string): Promise<Resource> {
  return (await sim.custom.getNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", namespace, plural: "sandboxes", name })) as Resource;
}

const condition = (object: Resource, type: string) => object.status?.conditions?.find((one) => one.type === type);

/** Waits until `check` passes on a fresh read. */
async function until<T extends Resource>(load: () => Promise<T>, check: (object: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  return eventually(async () => {
    const object = await load();
    if (!check(object)) throw new Error(`${what}: ${JSON.stringify(object.status ?? object.metadata)}`);
    return object;
  }, { timeoutMs });
}

const readyPool = (namespace: string, name: string, ready: number) =>
  until(() => read("pool", namespace, name), (pool) => pool.status?.readyReplicas === ready && pool.status?.replicas === ready, `pool ${name} not at ${ready} ready`);

const readyClaim = (namespace: string, name: string) => until(() => read("claim", namespace, name), (claim) => condition(claim, "Ready")?.status === "True", `claim ${name} not Ready`);

const claimReason = (namespace: string, name: string, reason: string) =>
  until(() => read("claim", namespace, name), (claim) => condition(claim, "Ready")?.reason === reason, `claim ${name} not ${reason}`);

async function eventsAbout(namespace: string, name: string): Promise<CoreV1Event[]> {
  return (await sim.core.listNamespacedEvent({ namespace })).items.filter((event) => event.involvedObject.name === name);
}


describe("a SandboxTemplate", () => {
  it("is labelled with the hash of its name", async () => {
    const namespace = await aNamespace();
    await create("template", namespace, aTemplate("python"));
    // FNV-1a 32 of "python", computed independently.
    const template = await until(() => read("template", namespace, "python"), (one) => one.metadata.labels?.["agents.x-k8s.io/sandbox-template-ref-hash"] !== undefined, "no hash label");
    expect(template.metadata.labels!["agents.x-k8s.io/sandbox-template-ref-hash"]).toBe("0fceff97");
  });

  it("gets the secure default NetworkPolicy: its pods reached only by the router, and reaching only public addresses", async () => {
    const namespace = await aNamespace();
    const template = await create("template", namespace, aTemplate("python"));
    const policy = await eventually(() => networking.readNamespacedNetworkPolicy({ namespace, name: "python-network-policy" }));
    expect({
      owner: policy.metadata!.ownerReferences![0]!.uid,
      selects: policy.spec!.podSelector!.matchLabels,
      from: policy.spec!.ingress![0]!._from![0]!.podSelector!.matchLabels,
      blocked: policy.spec!.egress![0]!.to![0]!.ipBlock!.except,
    }).toEqual({
      owner: template.metadata.uid,
      selects: { "agents.x-k8s.io/sandbox-template-ref-hash": "0fceff97" },
      from: { app: "sandbox-router" },
      blocked: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16"],
    });
  });

  it("has its NetworkPolicy removed when it becomes Unmanaged", async () => {
    const namespace = await aNamespace();
    await create("template", namespace, aTemplate("python"));
    await eventually(() => networking.readNamespacedNetworkPolicy({ namespace, name: "python-network-policy" }));
    await sim.custom.patchNamespacedCustomObject({
      group: EXTENSIONS, version: "v1beta1", namespace, plural: plural.template, name: "python",
      body: [{ op: "add", path: "/spec/networkPolicyManagement", value: "Unmanaged" }],
    });
    await eventuallyGone(() => networking.readNamespacedNetworkPolicy({ namespace, name: "python-network-policy" }));
  });
});

describe("a SandboxWarmPool", () => {
  it("keeps `replicas` Sandboxes of its template, owned by it, labelled warm and hardened by default", async () => {
    const namespace = await aNamespace();
    await create("template", namespace, aTemplate("python"));
    const pool = await create("pool", namespace, aWarmPool("fast", "python", 2));
    await readyPool(namespace, "fast", 2);
    const members = await sandboxesIn(namespace);
    expect(members.map((sandbox) => ({
      named: sandbox.metadata.name.startsWith("fast-"),
      owner: sandbox.metadata.ownerReferences?.map((one) => one.uid),
      launch: sandbox.metadata.labels?.["agents.x-k8s.io/launch-type"],
      template: sandbox.metadata.annotations?.["agents.x-k8s.io/sandbox-template-ref"],
      automount: ((sandbox.spec.podTemplate as { spec: { automountServiceAccountToken?: boolean } }).spec).automountServiceAccountToken,
      dns: ((sandbox.spec.podTemplate as { spec: { dnsPolicy?: string } }).spec).dnsPolicy,
    }))).toEqual(Array(2).fill({ named: true, owner: [pool.metadata.uid], launch: "warm", template: "python", automount: false, dns: "None" }));
  });

  it("reports its size and selector, so kubectl scale works on it", async () => {
    const namespace = await aNamespace();
    await create("template", namespace, aTemplate("python"));
    await create("pool", namespace, aWarmPool("fast", "python", 1));
    const pool = await readyPool(namespace, "fast", 1);
    const scale = (await sim.custom.getNamespacedCustomObjectScale({ group: EXTENSIONS, version: "v1beta1", namespace, plural: plural.pool, name: "fast" })) as { spec: { replicas: number }; status: { replicas: number; selector: string } };
    // FNV-1a 32 of "fast", computed independently.
    expect([pool.status?.selector, scale.spec.replicas, scale.status.replicas, scale.status.selector]).toEqual([`${WARM_POOL_LABEL}=029402af`, 1, 1, `${WARM_POOL_LABEL}=029402af`]);
  });

  it("replaces a member that is deleted", async () => {
    const namespace = await aNamespace();
    await create("template", namespace, aTemplate("python"));
    await create("pool", namespace, aWarmPool("fast", "python", 1));
    await readyPool(namespace, "fast", 1);
    const [first] = await sandboxesIn(namespace);
    await sim.custom.deleteNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", namespace, plural: "sandboxes", name: first!.metadata.name });
    const replaced = await eventually(async () => {
      const members = await sandboxesIn(namespace);
      if (members.length !== 1 || members[0]!.metadata.name === first!.metadata.name) throw new Error("not replaced yet");
      return members[0]!;
    });
    expect(replaced.metadata.name).toMatch(/^fast-/);
  });

  it("gives up its newest members first when scaled down", async () => {
    const namespace = await aNamespace();
    await create("template", namespace, aTemplate("python"));
    await create("pool", namespace, aWarmPool("fast", "python", 1));
    await readyPool(namespace, "fast", 1);
    const [oldest] = await sandboxesIn(namespace);
    const resize = (replicas: number) =>
      sim.custom.patchNamespacedCustomObject({ group: EXTENSIONS, version: "v1beta1", namespace, plural: plural.pool, name: "fast", body: [{ op: "replace", path: "/spec/replicas", value: replicas }] });
    await resize(3);
    await readyPool(namespace, "fast", 3);
    await resize(1);
    await readyPool(namespace, "fast", 1);
    expect((await sandboxesIn(namespace)).map((sandbox) => sandbox.metadata.uid)).toEqual([oldest!.metadata.uid]);
  });

  it("under Recreate replaces its members when the template changes", async () => {
    const namespace = await aNamespace();
    await create("template", namespace, aTemplate("python"));
    await create("pool", namespace, aWarmPool("fast", "python", 1, { updateStrategy: { type: "Recreate" } }));
    await readyPool(namespace, "fast", 1);
    await sim.custom.patchNamespacedCustomObject({
      group: EXTENSIONS, version: "v1beta1", namespace, plural: plural.template, name: "python",
      body: [{ op: "replace", path: "/spec/podTemplate/spec/containers/0/image", value: "python:3.13" }],
    });
    const replaced = await eventually(async () => {
      const members = await sandboxesIn(namespace);
      const images = members.map((sandbox) => (sandbox.spec.podTemplate as { spec: { containers: { image: string }[] } }).spec.containers[0]!.image);
      if (images.length !== 1 || images[0] !== "python:3.13") throw new Error(`members: ${images.join(",")}`);
      return images;
    });
    expect(replaced).toEqual(["python:3.13"]);
  });

  it("under OnReplenish keeps its members when the template changes", async () => {
    const namespace = await aNamespace();
    await create("template", namespace, aTemplate("python"));
    await create("pool", namespace, aWarmPool("fast", "python", 1));
    await readyPool(namespace, "fast", 1);
    const [before] = await sandboxesIn(namespace);
    await sim.custom.patchNamespacedCustomObject({
      group: EXTENSIONS, version: "v1beta1", namespace, plural: plural.template, name: "python",
      body: [{ op: "replace", path: "/spec/podTemplate/spec/containers/0/image", value: "python:3.13" }],
    });
    // A pass over the pool happens on the template change; give it time to have happened.
    await until(() => read("template", namespace, "python"), () => true, "template");
    await readyPool(namespace, "fast", 1);
    expect((await sandboxesIn(namespace)).map((sandbox) => sandbox.metadata.uid)).toEqual([before!.metadata.uid]);
  });

  it("makes nothing while its template is missing, and fills once it appears", async () => {
    const namespace = await aNamespace();
    await create("pool", namespace, aWarmPool("fast", "python", 1));
    await until(() => read("pool", namespace, "fast"), (pool) => pool.status?.selector !== undefined, "no status");
    expect(await sandboxesIn(namespace)).toEqual([]);
    await create("template", namespace, aTemplate("python"));
    await readyPool(namespace, "fast", 1);
  });

  it("holds a member whose pod cannot be scheduled past the readiness grace period, and says so", async () => {
    const namespace = await aNamespace();
    const unschedulable = { podTemplate: { spec: { nodeSelector: { "no-such": "node" }, containers: [{ name: "agent", image: IMAGE, command: ["sleep", "infinity"] }] } } };
    await create("template", namespace, aTemplate("python", unschedulable));
    await create("pool", namespace, aWarmPool("stuck", "python", 1));
    const [member] = await eventually(async () => {
      const members = await sandboxesIn(namespace);
      if (members.length !== 1) throw new Error("no member yet");
      return members;
    });
    // Five minutes of cluster time: 1.5 s at the fixture's 200×.
    const warning = await eventually(async () => {
      const found = (await eventsAbout(namespace, "stuck")).find((event) => event.reason === "WarmPoolNotProgressing");
      if (!found) throw new Error("no WarmPoolNotProgressing event");
      return found;
    }, { timeoutMs: 15_000 });
    expect([warning.type, (await sandboxesIn(namespace)).map((sandbox) => sandbox.metadata.uid)]).toEqual(["Warning", [member!.metadata.uid]]);
  });
});

describe("a SandboxClaim", () => {
  async function poolOf(namespace: string, replicas: number, template: Record<string, unknown> = {}) {
    await create("template", namespace, aTemplate("python", template));
    await create("pool", namespace, aWarmPool("fast", "python", replicas));
    if (replicas > 0) await readyPool(namespace, "fast", replicas);
  }

  it("is handed a Ready Sandbox of its pool, which becomes the claim's alone", async () => {
    const namespace = await aNamespace();
    await poolOf(namespace, 1);
    const [warm] = await sandboxesIn(namespace);
    const claim = await create("claim", namespace, aClaim("mine", "fast"));
    const ready = await readyClaim(namespace, "mine");
    const adopted = await readSandbox(namespace, warm!.metadata.name);
    expect({
      sandbox: (ready.status?.sandbox as { name: string }).name,
      annotated: ready.metadata.annotations?.["agents.x-k8s.io/sandbox-name"],
      owners: adopted.metadata.ownerReferences?.map((one) => one.uid),
      poolLabel: adopted.metadata.labels?.[WARM_POOL_LABEL],
      claimLabel: adopted.metadata.labels?.["agents.x-k8s.io/claim-uid"],
      launch: adopted.metadata.labels?.["agents.x-k8s.io/launch-type"],
    }).toEqual({ sandbox: warm!.metadata.name, annotated: warm!.metadata.name, owners: [claim.metadata.uid], poolLabel: undefined, claimLabel: claim.metadata.uid, launch: "warm" });
  });

  it("says it adopted a warm Sandbox in an event", async () => {
    const namespace = await aNamespace();
    await poolOf(namespace, 1);
    const [warm] = await sandboxesIn(namespace);
    await create("claim", namespace, aClaim("mine", "fast"));
    await readyClaim(namespace, "mine");
    const adoption = (await eventsAbout(namespace, "mine")).find((event) => event.reason === "SandboxAdopted");
    expect(adoption?.message).toBe(`Adopted warm pool Sandbox "${warm!.metadata.name}"`);
  });

  it("leaves its pool to make a replacement", async () => {
    const namespace = await aNamespace();
    await poolOf(namespace, 1);
    const [warm] = await sandboxesIn(namespace);
    await create("claim", namespace, aClaim("mine", "fast"));
    await readyClaim(namespace, "mine");
    await readyPool(namespace, "fast", 1);
    const members = (await sandboxesIn(namespace)).filter((sandbox) => sandbox.metadata.labels?.[WARM_POOL_LABEL]);
    expect(members.map((sandbox) => sandbox.metadata.name === warm!.metadata.name)).toEqual([false]);
  });

  it("has its adopted Sandbox's pod leave the pool's selection", async () => {
    const namespace = await aNamespace();
    await poolOf(namespace, 1);
    const [warm] = await sandboxesIn(namespace);
    await create("claim", namespace, aClaim("mine", "fast"));
    await readyClaim(namespace, "mine");
    const pod = await eventually(async () => {
      const read = await sim.core.readNamespacedPod({ namespace, name: warm!.metadata.name });
      if (read.metadata!.labels?.[WARM_POOL_LABEL] !== undefined) throw new Error("pod still in the pool");
      return read;
    });
    expect(pod.metadata!.labels!["agents.x-k8s.io/sandbox-template-ref-hash"]).toBe("0fceff97");
  });

  it("cold-starts a Sandbox named like itself when its pool has none to give", async () => {
    const namespace = await aNamespace();
    await poolOf(namespace, 0);
    await create("claim", namespace, aClaim("mine", "fast"));
    await readyClaim(namespace, "mine");
    const sandbox = await readSandbox(namespace, "mine");
    const provisioned = (await eventsAbout(namespace, "mine")).find((event) => event.reason === "SandboxProvisioned");
    expect([sandbox.metadata.labels?.["agents.x-k8s.io/launch-type"], provisioned?.message]).toEqual(["cold", 'Created Sandbox "mine"']);
  });

  it("waits, saying so, for a pool that does not exist yet", async () => {
    const namespace = await aNamespace();
    await create("claim", namespace, aClaim("mine", "later"));
    const waiting = await claimReason(namespace, "mine", "WarmPoolNotFound");
    expect(condition(waiting, "Ready")?.message).toBe('SandboxWarmPool "later" not found');
  });

  it("gets its Sandbox once the pool it waited for appears", async () => {
    const namespace = await aNamespace();
    await create("claim", namespace, aClaim("mine", "fast"));
    await claimReason(namespace, "mine", "WarmPoolNotFound");
    await poolOf(namespace, 0);
    await readyClaim(namespace, "mine");
  });

  it("is refused environment variables its template does not allow", async () => {
    const namespace = await aNamespace();
    await poolOf(namespace, 0);
    await create("claim", namespace, aClaim("mine", "fast", { env: [{ name: "TASK", value: "fix" }] }));
    const refused = await claimReason(namespace, "mine", "EnvVarsInjectionRejected");
    expect(condition(refused, "Ready")?.status).toBe("False");
  });

  it("has its environment variables given to the first container when the template allows them", async () => {
    const namespace = await aNamespace();
    await poolOf(namespace, 1, { envVarsInjectionPolicy: "Allowed" });
    await create("claim", namespace, aClaim("mine", "fast", { env: [{ name: "TASK", value: "fix" }] }));
    await readyClaim(namespace, "mine");
    const sandbox = await readSandbox(namespace, "mine");
    expect((sandbox.spec.podTemplate as { spec: { containers: { env?: unknown[] }[] } }).spec.containers[0]!.env).toEqual([{ name: "TASK", value: "fix" }]);
  });

  it("is refused pod labels outside the allowed domain", async () => {
    const namespace = await aNamespace();
    await poolOf(namespace, 0);
    await create("claim", namespace, aClaim("mine", "fast", { additionalPodMetadata: { labels: { "example.com/team": "a" } } }));
    const refused = await claimReason(namespace, "mine", "InvalidMetadata");
    expect(condition(refused, "Ready")?.message).toContain('label domain "example.com" is not in the allowlist');
  });

  it("passes allowed pod labels to its Sandbox's pod", async () => {
    const namespace = await aNamespace();
    await poolOf(namespace, 0);
    await create("claim", namespace, aClaim("mine", "fast", { additionalPodMetadata: { labels: { "sandbox.users.io/team": "a" } } }));
    await readyClaim(namespace, "mine");
    const pod = await sim.core.readNamespacedPod({ namespace, name: "mine" });
    expect(pod.metadata!.labels!["sandbox.users.io/team"]).toBe("a");
  });

  it("past its shutdown time says ClaimExpired and has its Sandbox deleted, itself kept (Retain)", async () => {
    const namespace = await aNamespace();
    await poolOf(namespace, 0);
    // One minute of cluster time from now: 0.3 s at the fixture's 200×.
    const shutdownTime = new Date(sim.cluster.clock.now().getTime() + 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    await create("claim", namespace, aClaim("mine", "fast", { lifecycle: { shutdownTime, shutdownPolicy: "Retain" } }));
    await readyClaim(namespace, "mine");
    await claimReason(namespace, "mine", "ClaimExpired");
    await eventuallyGone(() => readSandbox(namespace, "mine"));
    expect((await read("claim", namespace, "mine")).metadata.name).toBe("mine");
  });

  it("past its shutdown time is deleted itself under shutdownPolicy Delete", async () => {
    const namespace = await aNamespace();
    await poolOf(namespace, 0);
    const shutdownTime = new Date(sim.cluster.clock.now().getTime() + 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    await create("claim", namespace, aClaim("mine", "fast", { lifecycle: { shutdownTime, shutdownPolicy: "Delete" } }));
    await eventuallyGone(() => read("claim", namespace, "mine"));
  });

  it("takes its Sandbox with it when deleted", async () => {
    const namespace = await aNamespace();
    await poolOf(namespace, 1);
    await create("claim", namespace, aClaim("mine", "fast"));
    const ready = await readyClaim(namespace, "mine");
    await sim.custom.deleteNamespacedCustomObject({ group: EXTENSIONS, version: "v1beta1", namespace, plural: plural.claim, name: "mine" });
    await eventuallyGone(() => readSandbox(namespace, (ready.status?.sandbox as { name: string }).name));
  });
});
