import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MaintenancePreview } from "../domain/maintenance-preview.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";

// The drain preview against the embedded cluster: three sandboxes on one node (node-pinned
// storage by default), each told what a drain would do to it.

let world: ReconciledWorld;
let preview: MaintenancePreview;
beforeAll(async () => {
  world = await startReconciledWorld({ workers: 2 });
  // Everything on worker-1: the other node takes nothing while the sandboxes are placed.
  world.sim.faults.setUnschedulable("worker-2", true);
  await world.readySandbox({ name: "pinned" });
  await world.readySandbox({ name: "scratch", workspace: { backend: "ephemeral" } });
  await world.readySandbox({ name: "guarded", disruptionPolicy: { evictionProtection: true } });
  world.sim.faults.setUnschedulable("worker-2", false);
  await eventually(() => {
    if (world.reconciler.nodeViews().find((node) => node.name === "worker-2")?.cordoned !== false) throw new Error("worker-2 not seen uncordoned yet");
  });
  preview = (await world.reconciler.maintenancePreview("worker-1"))!;
}, 60_000);
afterAll(() => world?.stop());

const outcomeOf = (name: string) => preview.pods.find((pod) => pod.sandbox?.name === name);

describe("the maintenance preview of a node", () => {
  it("says a sandbox on node-pinned storage waits for the node", () => {
    expect(outcomeOf("pinned")?.outcome).toBe("waitsForNode");
  });

  it("says an ephemeral sandbox moves and loses its workspace", () => {
    expect(outcomeOf("scratch")?.outcome).toBe("losesWorkspace");
  });

  it("says a protected sandbox is checkpointed first", () => {
    expect(outcomeOf("guarded")?.checkpointedFirst).toBe(true);
  });

  it("names where moving pods can go", () => {
    expect(preview.otherSchedulableNodes).toEqual(["worker-2"]);
  });

  it("answers null for a node the cluster does not have", async () => {
    expect(await world.reconciler.maintenancePreview("worker-9")).toBeNull();
  });
});
