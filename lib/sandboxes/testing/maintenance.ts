// Test support: maintenance as a server runs it — requests stored as any replica stores them, a
// writer's runner taking them up — over a World.
import type { Actor } from "../../domain/audit.ts";
import type { MaintenanceOptions, MaintenanceRun, RunAuthority } from "../../domain/maintenance.ts";
import { anActor } from "../../domain/test-fixtures.ts";
import { requestMaintenance } from "../maintenance-requests.ts";
import { MaintenanceRunner, type MaintenanceRunnerDeps } from "../maintenance-runner.ts";
import type { World } from "./reconciled-world.ts";

export interface Maintenance {
  runner: MaintenanceRunner;
  /** Stores a run, as any replica does when asked. */
  request(node: string, options: MaintenanceOptions, actor?: Actor, authority?: RunAuthority): Promise<MaintenanceRun>;
  /** Asks for a run and waits until it has ended. */
  runToEnd(node: string, options: MaintenanceOptions, actor?: Actor, authority?: RunAuthority): Promise<MaintenanceRun>;
}

/** A started runner — the sole writer unless `overrides` says otherwise — for the world's maintenance. */
export function maintenanceIn(world: World, overrides: Partial<MaintenanceRunnerDeps> = {}): Maintenance {
  const runner = new MaintenanceRunner({
    ...world.deps,
    writer: { replica: "test-writer", leading: () => true, fence: () => undefined },
    retryMs: 50,
    onError: (error) => console.warn("maintenance runner:", error),
    ...overrides,
  });
  runner.start();
  const request = (node: string, options: MaintenanceOptions, actor: Actor = anActor("ops"), authority: RunAuthority = { kind: "berth" }) =>
    requestMaintenance({ store: world.deps.store, preview: (name) => world.reconciler.maintenancePreview(name) }, node, options, actor, authority);
  return {
    runner,
    request,
    async runToEnd(node, options, actor, authority) {
      const run = await request(node, options, actor, authority);
      return (await runner.finished(run.id))!;
    },
  };
}
