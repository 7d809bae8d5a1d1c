import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxSecretName } from "../domain/env.ts";
import { gatewayDefaultsSchema } from "../domain/gateway-defaults.ts";
import { anActor } from "../domain/test-fixtures.ts";
import { connectToEmbeddedCluster } from "../kube/cluster-connection.ts";
import { sandboxResources, type SandboxResources } from "../kube/sandbox-resources.ts";
import { startSimFixture, type SimFixture } from "../sim/testing/sim-fixture.ts";
import type { Store } from "../store/index.ts";
import { openTestStore } from "../store/test-databases.ts";
import { createSandbox, dryRunCreateSandbox, type CreateSandboxDeps } from "./create-sandbox.ts";
import { SandboxConflictError, SpecRejectedError } from "./lifecycle-errors.ts";

// A secret value goes into a Secret of the sandbox's own, owned by its Sandbox, and from there
// into the pod by reference; Berth's record keeps only that it is set. A Secret that already
// exists is referenced as it is.

let sim: SimFixture;
let store: Store;
let closeStore: () => Promise<void>;
let resources: SandboxResources;
let core: CoreV1Api;
let deps: CreateSandboxDeps;

beforeAll(async () => {
  sim = await startSimFixture();
  const connection = connectToEmbeddedCluster(sim.cluster.serverUrl, sim.cluster.adminToken);
  ({ store, cleanup: closeStore } = await openTestStore());
  resources = sandboxResources(connection, "v1beta1");
  core = connection.kubeConfig.makeApiClient(CoreV1Api);
  deps = { store, resources, sandboxApiVersion: "v1beta1", defaults: gatewayDefaultsSchema.parse({}) };
});
afterAll(async () => {
  await sim.cluster.stop();
  await closeStore();
});

let counter = 0;
const uniqueName = () => `secret-${++counter}-${Date.now().toString(36)}`;
const readSecret = (name: string) => core.readNamespacedSecret({ namespace: "default", name }).catch(() => null);
const agentEnvOf = async (name: string) =>
  ((await resources.readSandbox("default", name)) as unknown as { spec: { podTemplate: { spec: { containers: { env?: unknown[] }[] } } } } | null)?.spec.podTemplate.spec.containers[0]?.env;
const decoded = (data: Record<string, string> | undefined, key: string) => Buffer.from(data?.[key] ?? "", "base64").toString("utf8");
const withApiKey = (name: string) => ({ name, env: [{ name: "API_KEY", value: "sk-live-123", secret: true as const }, { name: "MODE", value: "test" }] });

describe("a secret value", () => {
  it("is written into the sandbox's own Secret", async () => {
    const name = uniqueName();
    await createSandbox(deps, withApiKey(name), anActor("alice"));
    expect(decoded((await readSecret(sandboxSecretName(name)))?.data, "API_KEY")).toBe("sk-live-123");
  });

  it("makes that Secret a dependent of the Sandbox, so it goes with it", async () => {
    const name = uniqueName();
    await createSandbox(deps, withApiKey(name), anActor("alice"));
    const sandbox = await resources.readSandbox("default", name);
    expect((await readSecret(sandboxSecretName(name)))?.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: "Sandbox", uid: sandbox?.metadata.uid, controller: false })]);
  });

  it("reaches the pod by reference, not as a value in the Sandbox", async () => {
    const name = uniqueName();
    await createSandbox(deps, withApiKey(name), anActor("alice"));
    const env = await agentEnvOf(name);
    expect(env).toEqual([{ name: "API_KEY", valueFrom: { secretKeyRef: { name: sandboxSecretName(name), key: "API_KEY" } } }, { name: "MODE", value: "test" }]);
  });

  it("is not in Berth's record: the variable is stored as set, without its value", async () => {
    const name = uniqueName();
    const { record } = await createSandbox(deps, withApiKey(name), anActor("alice"));
    const stored = await store.sandboxes.getSandbox(record.id);
    expect([JSON.stringify(stored).includes("sk-live-123"), (stored?.spec as { env: unknown[] }).env[0]]).toEqual([false, { name: "API_KEY", secret: true }]);
  });

  it("must be given at create: a variable marked secret with no value is refused, naming it", async () => {
    const error = await createSandbox(deps, { name: uniqueName(), env: [{ name: "API_KEY", secret: true }] }, anActor("alice")).catch((caught: unknown) => caught);
    expect((error as SpecRejectedError).problems).toEqual([expect.objectContaining({ code: "env.secret-without-value", path: ["env", 0, "value"] })]);
  });

  it("is not left in a Secret when the Sandbox cannot be created", async () => {
    const name = uniqueName();
    await sim.fault("api-faults", { verb: "create", resource: "sandboxes", code: 500, message: "etcdserver: request timed out", count: 1 });
    await createSandbox(deps, withApiKey(name), anActor("alice")).catch(() => {});
    expect(await readSecret(sandboxSecretName(name))).toBeNull();
  });

  it("refuses to overwrite a Secret of that name it did not make: 409, and the Secret is as it was", async () => {
    const name = uniqueName();
    await core.createNamespacedSecret({ namespace: "default", body: { metadata: { name: sandboxSecretName(name) }, stringData: { OTHER: "theirs" } } });
    const error = await createSandbox(deps, withApiKey(name), anActor("alice")).catch((caught: unknown) => caught);
    const secret = await readSecret(sandboxSecretName(name));
    expect([error instanceof SandboxConflictError, Object.keys(secret?.data ?? {}), await store.sandboxes.findLiveSandbox("default", name)]).toEqual([true, ["OTHER"], null]);
  });

  it("is checked by the dry run without being written", async () => {
    const name = uniqueName();
    const { rendered } = await dryRunCreateSandbox(deps, withApiKey(name));
    expect([rendered.secret?.metadata.name, await readSecret(sandboxSecretName(name))]).toEqual([sandboxSecretName(name), null]);
  });
});

describe("a variable from an existing Secret", () => {
  it("is referenced as it is, and Berth makes no Secret of its own", async () => {
    const name = uniqueName();
    await createSandbox(deps, { name, env: [{ name: "TOKEN", valueFrom: { secretKeyRef: { name: "team-token", key: "token" } } }] }, anActor("alice"));
    const env = await agentEnvOf(name);
    expect([env, await readSecret(sandboxSecretName(name))]).toEqual([[{ name: "TOKEN", valueFrom: { secretKeyRef: { name: "team-token", key: "token" } } }], null]);
  });
});
