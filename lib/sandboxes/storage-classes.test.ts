import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToEmbeddedCluster } from "../kube/cluster-connection.ts";
import { startSimulatedCluster, type SimCluster } from "../sim/index.ts";
import { listStorageClassViews } from "./storage-classes.ts";

// The storage classes of a cluster, read through the API as the create form gets them.

let sim: SimCluster;

beforeAll(async () => {
  sim = await startSimulatedCluster();
});
afterAll(() => sim.stop());

describe("the storage classes of the embedded cluster", () => {
  it("show local-path as the node-pinned default and portable as an expandable class that can snapshot", async () => {
    const classes = await listStorageClassViews(connectToEmbeddedCluster(sim.serverUrl, sim.adminToken));
    expect(classes.map(({ name, isDefault, placement, allowVolumeExpansion, snapshots }) => ({ name, isDefault, placement, allowVolumeExpansion, snapshots }))).toEqual([
      { name: "local-path", isDefault: true, placement: "node-pinned", allowVolumeExpansion: false, snapshots: false },
      { name: "portable", isDefault: false, placement: "portable", allowVolumeExpansion: true, snapshots: true },
    ]);
  });
});
