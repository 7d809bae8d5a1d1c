// The driver suite's world: Berth's lifecycle service and reconciler, a store, and an operator
// with kubectl's powers, on the cluster under test — the embedded one in `npm test`, a real
// control plane in `npm run test:cluster`. Names carry a per-run suffix, because a real cluster
// outlives one run of the suite (it runs twice there: as cluster-admin and as Berth's chart's
// service account).
import { anActor } from "../../domain/test-fixtures.ts";
import { randomBytes } from "node:crypto";
import type { TestContext } from "vitest";
import { BERTH_ROLES } from "../../domain/berth-roles.ts";
import type { Person } from "../../domain/person.ts";
import type { SandboxRecord } from "../../domain/sandbox-record.ts";
import { accessObjects, group } from "../../kube/access-objects.ts";
import { deleteSandbox } from "../sandbox-actions.ts";
import { startClusterUnderTest, type ClusterUnderTest } from "../testing/cluster-under-test.ts";
import { operator } from "../testing/operator.ts";
import { startWorld, type World } from "../testing/reconciled-world.ts";

export interface SuiteWorld extends World {
  cluster: ClusterUnderTest;
  operator: ReturnType<typeof operator>;
  /** A sandbox name unique to this run. */
  named(base: string): string;
}

export async function startSuiteWorld(): Promise<SuiteWorld> {
  const cluster = await startClusterUnderTest();
  const world = await startWorld(cluster.connection);
  const run = randomBytes(3).toString("hex");
  const { patienceMs } = cluster;
  return {
    ...world,
    cluster,
    operator: operator(cluster.operatorConnection),
    named: (base) => `${base}-${run}`,
    readySandbox: (spec, timeoutMs = patienceMs) => world.readySandbox(withShortGrace(spec), timeoutMs),
    recordWhen: (id, check, timeoutMs = patienceMs) => world.recordWhen(id, check, timeoutMs),
    async stop() {
      // A real cluster outlives the run: leave it as it was found, through Berth's own delete.
      for (const record of await world.deps.store.sandboxes.listAllLive()) {
        await deleteSandbox(world.deps, record.id, anActor("driver-suite")).catch((error: unknown) => console.warn(`could not delete ${record.name}: ${(error as Error).message}`));
      }
      await world.stop();
      await cluster.stop();
    },
  };
}

/**
 * A real grace period passes in real time (kwok ends a deleted pod at a random moment within
 * it), and Kubernetes' default of 30 s would make every disruption here last that long.
 */
function withShortGrace(spec: Record<string, unknown>): Record<string, unknown> {
  const policy = (spec.disruptionPolicy ?? {}) as Record<string, unknown>;
  return { ...spec, disruptionPolicy: { terminationGracePeriodSeconds: 3, ...policy } };
}

/** Skips a test that needs a command run in a container where that is impossible, saying why. */
export function needsExec(world: SuiteWorld, context: TestContext): void {
  const reason = world.cluster.execUnavailable;
  if (reason === null) return;
  console.warn(`skipped on ${world.cluster.description}: "${context.task.name}": ${reason}`);
  context.skip(reason);
}

/** Ready in a pod other than `before`'s. */
export const replacedAndReady = (before: SandboxRecord) => (record: SandboxRecord) => {
  if (record.phase !== "Ready") throw new Error(`${record.name} is ${record.phase}/${record.reason} (${record.message})`);
  if (record.podUid === before.podUid) throw new Error("still the first pod");
};

/** A person of this run bound to berth-platform-admin (cluster-wide), as a platform team binds its admins. */
export async function platformAdmin(world: Pick<SuiteWorld, "cluster" | "named">): Promise<Person> {
  const admin: Person = { username: world.named("pat"), groups: [world.named("platform")] };
  const role = BERTH_ROLES.find((one) => one.name === "berth-platform-admin")!;
  const operator = accessObjects(world.cluster.operatorConnection);
  await operator.ensureClusterRole(role.name, role.rules);
  await operator.ensureClusterRoleBinding(world.named("platform-admins"), role.name, [group(admin.groups[0]!)]);
  return admin;
}
