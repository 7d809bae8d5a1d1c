import type { Actor } from "../domain/audit.ts";
import { maintenanceRunSchema, type BudgetRef, type MaintenanceOptions, type MaintenanceProgress, type MaintenanceRun, type MaintenanceRunState } from "../domain/maintenance.ts";
import { type Db, toJson, Prisma } from "./prisma-client.ts";

type RunRow = Prisma.MaintenanceRunGetPayload<object>;

const toRun = (row: RunRow): MaintenanceRun => maintenanceRunSchema.parse(row);

/** Serializes starts of runs on one node (with the node's name hashed in), across every process on the database. */
const START_LOCK_KEY = 72_417_002;

export class MaintenanceAlreadyRunningError extends Error {
  constructor(
    readonly node: string,
    readonly runId: string,
  ) {
    super(`A maintenance run on node ${node} is already running (${runId})`);
    this.name = "MaintenanceAlreadyRunningError";
  }
}

export function maintenanceRepository(db: Db) {
  return {
    /** Starts a run, unless one is Running on the node already (whichever replica started it): MaintenanceAlreadyRunningError then. */
    async startRun(run: { id?: string; node: string; actor: Actor; options: MaintenanceOptions; startedAt: Date }): Promise<MaintenanceRun> {
      const { actor, ...rest } = run;
      const row = await db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM pg_advisory_xact_lock(${START_LOCK_KEY}::int, hashtext(${run.node}))`;
        const running = await tx.maintenanceRun.findFirst({ where: { node: run.node, state: "Running" }, select: { id: true } });
        if (running) throw new MaintenanceAlreadyRunningError(run.node, running.id);
        return tx.maintenanceRun.create({ data: { ...rest, actor: actor.username, actorGroups: actor.groups, options: toJson(run.options) } });
      });
      return toRun(row);
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
