import { anActor } from "../domain/test-fixtures.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayDefaultsSchema } from "../domain/gateway-defaults.ts";
import { subscribeToTimeline } from "../events/event-bus.ts";
import { connectToEmbeddedCluster, type ClusterConnection } from "../kube/cluster-connection.ts";
import { sandboxResources, type SandboxResources } from "../kube/sandbox-resources.ts";
import { startSimFixture, type SimFixture } from "../sim/testing/sim-fixture.ts";
import { eventually } from "../sim/testing/eventually.ts";
import type { Store } from "../store/index.ts";
import { openTestStore } from "../store/test-databases.ts";
import { createSandbox, dryRunCreateSandbox, type CreateSandboxDeps } from "./create-sandbox.ts";
import { SandboxConflictError, SpecRejectedError } from "./lifecycle-errors.ts";

// Creating sandboxes through the lifecycle service against the embedded cluster, reached over
// HTTP through client-node exactly as a real cluster would be.

let sim: SimFixture;
let connection: ClusterConnection;
let store: Store;
let closeStore: () => Promise<void>;
let resources: SandboxResources;
let deps: CreateSandboxDeps;

beforeAll(async () => {
  sim = await startSimFixture();
  connection = connectToEmbeddedCluster(sim.cluster.serverUrl, sim.cluster.adminToken);
  ({ store, cleanup: closeStore } = await openTestStore());
  resources = sandboxResources(connection, "v1beta1");
  deps = { store, resources, sandboxApiVersion: "v1beta1", defaults: gatewayDefaultsSchema.parse({}) };
});
afterAll(async () => {
  await sim.cluster.stop();
  await closeStore();
});

let counter = 0;
const uniqueName = () => `box-${++counter}-${Date.now().toString(36)}`;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => { throw new Error("expected a refusal"); }, (error: unknown) => error);
}

describe("creating a sandbox", () => {
  it("creates the Sandbox and records it, with a Created timeline event", async () => {
    const name = uniqueName();
    const { record } = await createSandbox(deps, { name }, anActor("alice"));
    const sandbox = await resources.readSandbox("default", name);
    const [event] = await store.timeline.listForSandbox(record.id, { limit: 5 });
    expect([sandbox?.metadata.labels?.["berth.dev/sandbox-id"], event?.reason]).toEqual([record.id, "Created"]);
  });

  it("tells live subscribers that it was created", async () => {
    const seen: string[] = [];
    const unsubscribe = subscribeToTimeline((event) => seen.push(`${event.sandboxId} ${event.reason}`));
    const { record } = await createSandbox(deps, { name: uniqueName() }, anActor("alice"));
    unsubscribe();
    expect(seen).toContain(`${record.id} Created`);
  });

  it("gets a workspace claim from the controller for the default pvc/template workspace", async () => {
    const name = uniqueName();
    await createSandbox(deps, { name }, anActor("alice"));
    const claim = await eventually(async () => {
      const found = await resources.readClaim("default", `workspace-${name}`);
      if (!found) throw new Error("no claim yet");
      return found;
    });
    expect(claim.spec?.resources?.requests?.storage).toBe("2Gi");
  });

  it("creates a retained claim labelled as Berth's before the Sandbox", async () => {
    const name = uniqueName();
    await createSandbox(deps, { name, workspace: { claim: { ownership: "retain" } } }, anActor("alice"));
    const claim = await resources.readClaim("default", `workspace-${name}`);
    expect(claim?.metadata?.labels?.["berth.dev/claim-ownership"]).toBe("retain");
  });

  it("makes a delete claim a non-controlling dependent of the Sandbox", async () => {
    const name = uniqueName();
    await createSandbox(deps, { name, workspace: { claim: { ownership: "delete" } } }, anActor("alice"));
    const sandbox = await resources.readSandbox("default", name);
    const claim = await resources.readClaim("default", `workspace-${name}`);
    expect(claim?.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: "Sandbox", uid: sandbox?.metadata.uid, controller: false, blockOwnerDeletion: false }),
    ]);
  });

  it("creates no claim at all for an ephemeral workspace", async () => {
    const name = uniqueName();
    const { rendered } = await createSandbox(deps, { name, workspace: { backend: "ephemeral" } }, anActor("alice"));
    expect([rendered.claims, rendered.sandbox.spec.volumeClaimTemplates]).toEqual([[], undefined]);
  });

  it("protects the sandbox with a budget when asked", async () => {
    const name = uniqueName();
    const { rendered } = await createSandbox(deps, { name, disruptionPolicy: { evictionProtection: true } }, anActor("alice"));
    const budgetName = rendered.podDisruptionBudget!.metadata.name!;
    const budget = await sim.policy.readNamespacedPodDisruptionBudget({ namespace: "default", name: budgetName });
    expect(budget.metadata?.name).toBe(budgetName);
  });
});

describe("a refused create", () => {
  it("names the field of an existing claim that does not exist, and leaves nothing behind", async () => {
    const name = uniqueName();
    const error = await rejection(createSandbox(deps, { name, workspace: { claim: { ownership: "existing", claimName: "nowhere" } } }, anActor("alice")));
    const leftovers = [await resources.readSandbox("default", name), await store.sandboxes.findLiveSandbox("default", name)];
    expect([(error as SpecRejectedError).problems?.[0]?.path, leftovers]).toEqual([["workspace", "claim", "claimName"], [null, null]]);
  });

  it("refuses a claim that another live sandbox manages, with 409's error", async () => {
    const owner = uniqueName();
    await createSandbox(deps, { name: owner, workspace: { claim: { ownership: "retain", claimName: `shared-${owner}` } } }, anActor("alice"));
    const error = await rejection(createSandbox(deps, { name: uniqueName(), workspace: { claim: { ownership: "retain", claimName: `shared-${owner}` } } }, anActor("bob")));
    expect(error).toBeInstanceOf(SandboxConflictError);
  });

  it("refuses an invalid spec before touching the cluster or the store", async () => {
    const name = uniqueName();
    const error = await rejection(createSandbox(deps, { name, workspace: { backend: "ephemeral", claim: { size: "5Gi" } } }, anActor("alice")));
    expect([error instanceof SpecRejectedError, await store.sandboxes.findLiveSandbox("default", name)]).toEqual([true, null]);
  });

  it("undoes the claims it made when the Sandbox cannot be created", async () => {
    const name = uniqueName();
    await sim.fault("api-faults", { verb: "create", resource: "sandboxes", code: 500, message: "etcdserver: request timed out", count: 1 });
    await rejection(createSandbox(deps, { name, workspace: { claim: { ownership: "delete" } } }, anActor("alice")));
    expect([await resources.readClaim("default", `workspace-${name}`), await store.sandboxes.findLiveSandbox("default", name)]).toEqual([null, null]);
  });
});

describe("a dry run", () => {
  it("renders and validates against the cluster without creating anything", async () => {
    const name = uniqueName();
    const { rendered } = await dryRunCreateSandbox(deps, { name, workspace: { claim: { ownership: "retain" } } });
    expect([rendered.claims[0]?.name, await resources.readSandbox("default", name), await resources.readClaim("default", `workspace-${name}`)]).toEqual([`workspace-${name}`, null, null]);
  });
});
