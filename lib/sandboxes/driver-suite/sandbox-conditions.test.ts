import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anActor } from "../../domain/test-fixtures.ts";
import { eventually } from "../../sim/testing/eventually.ts";
import { setSandboxRunning } from "../sandbox-actions.ts";
import { inPhase } from "../testing/reconciled-world.ts";
import { startSuiteWorld, type SuiteWorld } from "./suite-world.ts";

// Driver suite: the conditions the agent-sandbox controller writes on a Sandbox, read as they are
// — on the embedded cluster (which follows v0.5.6) in `npm test`, and from the real controller on
// a real control plane in `npm run test:cluster`, at v0.5.6 and at v0.5.3 (the oldest release
// Berth supports), so the embedded controller cannot drift from it. What differs between the two
// is docs/install.md's table.

let world: SuiteWorld;
beforeAll(async () => {
  world = await startSuiteWorld();
}, 120_000);
afterAll(() => world?.stop());

interface Condition {
  type: string;
  status: string;
  reason: string;
}

async function conditionsOf(name: string): Promise<Record<string, Pick<Condition, "status" | "reason">>> {
  const sandbox = (await world.operator.getSandbox("default", name)) as { status?: { conditions?: Condition[] } } | null;
  return Object.fromEntries((sandbox?.status?.conditions ?? []).map(({ type, status, reason }) => [type, { status, reason }]));
}

/** The conditions once `settled` holds of them (the controller writes them a step at a time). */
const conditionsWhen = (name: string, settled: (conditions: Record<string, Pick<Condition, "status" | "reason">>) => boolean) =>
  eventually(async () => {
    const conditions = await conditionsOf(name);
    if (!settled(conditions)) throw new Error(`conditions not settled yet: ${JSON.stringify(conditions)}`);
    return conditions;
  }, { timeoutMs: world.cluster.patienceMs });

/** A running Sandbox's conditions: v0.5.3 writes Ready alone; later releases add Suspended and a mirrored PodScheduled. */
function runningConditions(version: string): Record<string, Pick<Condition, "status" | "reason">> {
  const ready = { Ready: { status: "True", reason: "DependenciesReady" } };
  if (version === "v0.5.3") return ready;
  return { Suspended: { status: "False", reason: "NotSuspended" }, PodScheduled: { status: "True", reason: "PodScheduled" }, ...ready };
}

describe("the conditions agent-sandbox writes on a Sandbox", () => {
  it("says a running sandbox is Ready (and, from v0.5.6, not suspended, its pod scheduled)", async () => {
    const name = world.named("conditions");
    await world.readySandbox({ name, workspace: { backend: "ephemeral" } });
    const expected = runningConditions(world.cluster.agentSandboxVersion);
    const conditions = await conditionsWhen(name, (found) => Object.entries(expected).every(([type, { status }]) => found[type]?.status === status));
    expect(conditions).toEqual(expected);
  });

  it("says a stopped sandbox is suspended, its pod terminated, and drops PodScheduled", async () => {
    const name = world.named("suspended");
    const { id } = await world.readySandbox({ name, workspace: { backend: "ephemeral" }, disruptionPolicy: { terminationGracePeriodSeconds: 1 } });
    await setSandboxRunning(world.deps, id, false, anActor("alice"));
    await world.recordWhen(id, inPhase("Stopped"));
    const conditions = await conditionsWhen(name, (found) => found.Suspended?.status === "True");
    expect(conditions).toEqual({ Suspended: { status: "True", reason: "PodTerminated" }, Ready: { status: "False", reason: "SandboxSuspended" } });
  });
});
