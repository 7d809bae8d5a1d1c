import { CoordinationV1Api, V1MicroTime, type V1Lease } from "@kubernetes/client-node";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulatedCluster, type SimCluster } from "../sim/index.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { connectToEmbeddedCluster, connectToRealCluster, type ClusterConnection } from "./cluster-connection.ts";
import { LeaderElector, type LeaderElectionOptions } from "./leader-election.ts";

// Leader election on a real Lease: of the embedded API server in `npm test`, of a real control
// plane in `npm run test:cluster` (BERTH_TEST_KUBECONFIG). Candidates are separate electors, as
// replicas would be, with short durations so that expiry happens within a test.

const REAL_CLUSTER = process.env.BERTH_TEST_KUBECONFIG;
/** Where the Leases go: the chart's namespace when run as its service account. */
const NAMESPACE = process.env.BERTH_TEST_LEASE_NAMESPACE ?? "default";
let sim: SimCluster | undefined;
let connection: ClusterConnection;
beforeAll(async () => {
  if (REAL_CLUSTER) {
    connection = connectToRealCluster("kubeconfig", REAL_CLUSTER);
    return;
  }
  sim = await startSimulatedCluster({ clockScale: 1 });
  connection = connectToEmbeddedCluster(sim.serverUrl, sim.adminToken);
});
afterAll(() => sim?.stop());

const started: LeaderElector[] = [];
afterEach(async () => {
  sim?.faults.clearApiFaults();
  await Promise.all(started.splice(0).map((elector) => elector.stop()));
});

const FAST = { leaseDurationMs: 1_000, renewDeadlineMs: 700, retryPeriodMs: 100 };

/** A lease name of this test's own. */
const aLease = () => `berth-leader-${randomBytes(3).toString("hex")}`;

function candidate(name: string, identity: string, timings: Partial<LeaderElectionOptions> = FAST): LeaderElector {
  const elector = new LeaderElector(connection, { namespace: NAMESPACE, name, identity, ...timings });
  elector.start();
  started.push(elector);
  return elector;
}

const leaders = (electors: LeaderElector[]) => electors.filter((elector) => elector.leadership.leading);
const leases = () => connection.kubeConfig.makeApiClient(CoordinationV1Api);

function oneLeader(electors: LeaderElector[]): LeaderElector {
  const leading = leaders(electors);
  if (leading.length !== 1) throw new Error(`${leading.length} leaders`);
  return leading[0]!;
}

describe("leader election on a Lease", () => {
  it("makes one of three candidates the leader, and the others know which", async () => {
    const name = aLease();
    const electors = ["replica-a", "replica-b", "replica-c"].map((identity) => candidate(name, identity));
    const leader = await eventually(() => oneLeader(electors));
    const holder = (await leases().readNamespacedLease({ namespace: NAMESPACE, name })).spec?.holderIdentity;
    await eventually(() => expect(electors.map((elector) => elector.leadership.holder)).toEqual([holder, holder, holder]));
    expect(leader.leadership.holder).toBe(holder);
  });

  it("hands over at once when the leader stops, rather than after the lease runs out", async () => {
    const name = aLease();
    const slowExpiry = { leaseDurationMs: 20_000, renewDeadlineMs: 10_000, retryPeriodMs: 100 };
    const first = candidate(name, "replica-a", slowExpiry);
    await eventually(() => oneLeader([first]));
    const second = candidate(name, "replica-b", slowExpiry);
    await first.stop();
    await eventually(() => oneLeader([second]), { timeoutMs: 5_000 });
  });

  it("takes over a lease its holder stopped renewing once it has gone unchanged for its duration, in a new term", async () => {
    const name = aLease();
    const now = new V1MicroTime();
    await leases().createNamespacedLease({
      namespace: NAMESPACE,
      body: { metadata: { name }, spec: { holderIdentity: "replica-that-crashed", leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: 4 } },
    });
    const elector = candidate(name, "replica-b");
    await new Promise((resolve) => setTimeout(resolve, 400));
    const before = elector.leadership;
    await eventually(() => oneLeader([elector]), { timeoutMs: 5_000 });
    expect({ before, after: elector.leadership }).toEqual({
      before: { leading: null, holder: "replica-that-crashed" },
      after: { leading: { term: 5 }, holder: "replica-b" },
    });
  });

  // Failing the API server's answers is something only the embedded one can be told to do.
  it.skipIf(REAL_CLUSTER)("stops acting as leader once a renewal hangs past the renew deadline", async () => {
    const name = aLease();
    const elector = candidate(name, "replica-a");
    await eventually(() => oneLeader([elector]));
    sim!.faults.injectApiFault({ resource: "leases", name, latencyMs: 5_000 });
    await eventually(() => expect(elector.isLeading()).toBe(false), { timeoutMs: 3_000 });
  });

  it.skipIf(REAL_CLUSTER)("stops leading when it cannot renew within the renew deadline", async () => {
    const name = aLease();
    const elector = candidate(name, "replica-a");
    await eventually(() => oneLeader([elector]));
    sim!.faults.injectApiFault({ resource: "leases", name, code: 500, message: "etcdserver: request timed out" });
    await eventually(() => expect(elector.leadership.leading).toBeNull(), { timeoutMs: 5_000 });
  });

  it("never lets two candidates lead at once while leaders hand over and new candidates come", async () => {
    const name = aLease();
    const electors = ["replica-a", "replica-b", "replica-c"].map((identity) => candidate(name, identity));
    let most = 0;
    const sampling = setInterval(() => (most = Math.max(most, leaders(electors).length)), 5);
    try {
      for (let round = 0; round < 4; round++) {
        const leader = await eventually(() => oneLeader(electors), { timeoutMs: 5_000 });
        const index = electors.indexOf(leader);
        await leader.stop();
        electors[index] = candidate(name, `replica-${round}-again`);
        // A few rounds of renewals with every candidate trying.
        await new Promise((resolve) => setTimeout(resolve, 5 * FAST.retryPeriodMs));
      }
    } finally {
      clearInterval(sampling);
    }
    expect(most).toBe(1);
  });

  it("writes the Lease as client-go does: this replica as holder, the duration in seconds, no transitions yet", async () => {
    const name = aLease();
    const elector = candidate(name, "replica-a");
    await eventually(() => oneLeader([elector]));
    const lease: V1Lease = await leases().readNamespacedLease({ namespace: NAMESPACE, name });
    expect(lease.spec).toMatchObject({ holderIdentity: "replica-a", leaseDurationSeconds: 1, leaseTransitions: 0 });
  });
});

