import type { Actor } from "../domain/audit.ts";
import { maintenanceRunSchema, type BudgetRef, type MaintenanceOptions, type MaintenanceProgress, type MaintenanceRun, type MaintenanceRunState } from "../domain/maintenance.ts";
import { type Db, toJson, Prisma } from "./prisma-client.ts";

type RunRow = Prisma.MaintenanceRunGetPayload<object>;

const toRun = (row: RunRow): MaintenanceRun => maintenanceRunSchema.parse(row);

export function maintenanceRepository(db: Db) {
  return {
    async startRun(run: { node: string; actor: Actor; options: MaintenanceOptions; startedAt: Date }): Promise<MaintenanceRun> {
      const { actor, ...rest } = run;
      return toRun(await db.maintenanceRun.create({ data: { ...rest, actor: actor.username, actorGroups: actor.groups, options: toJson(run.options) } }));
    },

    /** Saved after every step: what a restart reads to say where the run stopped. */
    async saveProgress(id: string, progress: MaintenanceProgress, relaxedBudgets: BudgetRef[]): Promise<MaintenanceRun> {
      return toRun(await db.maintenanceRun.update({ where: { id }, data: { progress: toJson(progress), relaxedBudgets: toJson(relaxedBudgets) } }));
    },

    async finishRun(id: string, state: Exclude<MaintenanceRunState, "Running">, message: string, finishedAt: Date): Promise<MaintenanceRun> {
      return toRun(await db.maintenanceRun.update({ where: { id }, data: { state, message, finishedAt } }));
    },

    async getRun(id: string): Promise<MaintenanceRun | null> {
      const row = await db.maintenanceRun.findUnique({ where: { id } });
      return row ? toRun(row) : null;
    },

    /** Newest first. */
    async listRunsForNode(node: string, limit = 20): Promise<MaintenanceRun[]> {
      return (await db.maintenanceRun.findMany({ where: { node }, orderBy: { startedAt: "desc" }, take: limit })).map(toRun);
    },

    async listRunning(): Promise<MaintenanceRun[]> {
      return (await db.maintenanceRun.findMany({ where: { state: "Running" } })).map(toRun);
    },

    /** How every finished run ended, for the metrics. */
    async finishedOutcomes(): Promise<{ outcome: string }[]> {
      return (await db.maintenanceRun.findMany({ where: { state: { not: "Running" } }, select: { state: true } })).map((row) => ({ outcome: row.state }));
    },
  };
}

export type MaintenanceRepository = ReturnType<typeof maintenanceRepository>;
