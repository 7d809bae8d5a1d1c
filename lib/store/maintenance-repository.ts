import type { Actor } from "../domain/audit.ts";
import {
  maintenanceRunSchema,
  runAuthoritySchema,
  type BudgetRef,
  type MaintenanceOptions,
  type MaintenanceProgress,
  type MaintenanceRun,
  type MaintenanceRunState,
  type RunAuthority,
} from "../domain/maintenance.ts";
import { type Db, type Tx, toJson, Prisma } from "./prisma-client.ts";
import { STORE_CHANNELS, type NotifiedListener, type StoreNotifications } from "./store-notifications.ts";
import { checkFence, type WriterFence } from "./writer-term-repository.ts";

type RunRow = Prisma.MaintenanceRunGetPayload<object>;

const toRun = (row: RunRow): MaintenanceRun => maintenanceRunSchema.parse(row);

/** A run as the writer that takes it up sees it: with the authority its Kubernetes writes carry. */
export interface TakenRun {
  run: MaintenanceRun;
  authority: RunAuthority;
}

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

// Any replica stores a run (and a request to cancel it); the writer takes it up, saves its
// progress and finishes it, each of those fenced by its term. Every change is told on
// `maintenanceChanged`, so that the writer hears of a new run or a cancel at once.

export function maintenanceRepository(db: Db, notifications: StoreNotifications) {
  const notify = async (client: Db | Tx, id: string) => {
    if (notifications.crossProcess) await client.$queryRaw`SELECT 1 FROM pg_notify(${STORE_CHANNELS.maintenanceChanged}, ${id})`;
  };
  /** Runs `write` in a transaction that holds the fence and tells every replica once it commits. */
  const fenced = async (id: string, fence: WriterFence | undefined, write: (tx: Tx) => Promise<RunRow>): Promise<MaintenanceRun> => {
    const row = await db.$transaction(async (tx) => {
      await checkFence(tx, fence);
      const written = await write(tx);
      await notify(tx, id);
      return written;
    });
    notifications.committed("maintenanceChanged", id);
    return toRun(row);
  };
  const getRun = async (id: string): Promise<MaintenanceRun | null> => {
    const row = await db.maintenanceRun.findUnique({ where: { id } });
    return row ? toRun(row) : null;
  };

  return {
    /** Stores a run for the writer to take up, unless one is Running on the node already (MaintenanceAlreadyRunningError then). */
    async startRun(run: { id?: string; node: string; actor: Actor; authority: RunAuthority; options: MaintenanceOptions; progress?: MaintenanceProgress; startedAt: Date }): Promise<MaintenanceRun> {
      const { actor, authority, options, progress, ...rest } = run;
      const row = await db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM pg_advisory_xact_lock(${START_LOCK_KEY}::int, hashtext(${run.node}))`;
        const running = await tx.maintenanceRun.findFirst({ where: { node: run.node, state: "Running" }, select: { id: true } });
        if (running) throw new MaintenanceAlreadyRunningError(run.node, running.id);
        const created = await tx.maintenanceRun.create({
          data: { ...rest, actor: actor.username, actorGroups: actor.groups, authority: toJson(runAuthoritySchema.parse(authority)), options: toJson(options), progress: toJson(progress ?? { sandboxes: [], pods: [] }) },
        });
        await notify(tx, created.id);
        return created;
      });
      notifications.committed("maintenanceChanged", row.id);
      return toRun(row);
    },

    /** The writer takes the run up (again): counted, and named as the replica running it. Null once it is no longer Running. */
    async takeRun(id: string, replica: string, fence?: WriterFence): Promise<TakenRun | null> {
      const row = await db.$transaction(async (tx) => {
        await checkFence(tx, fence);
        const taken = await tx.maintenanceRun.updateManyAndReturn({ where: { id, state: "Running" }, data: { attempts: { increment: 1 }, runBy: replica } });
        return taken[0] ?? null;
      });
      return row ? { run: toRun(row), authority: runAuthoritySchema.parse(row.authority) } : null;
    },

    /** Saved after every step: what the next writer resumes from. */
    async saveProgress(id: string, progress: MaintenanceProgress, relaxedBudgets: BudgetRef[], fence?: WriterFence): Promise<MaintenanceRun> {
      return fenced(id, fence, (tx) => tx.maintenanceRun.update({ where: { id }, data: { progress: toJson(progress), relaxedBudgets: toJson(relaxedBudgets) } }));
    },

    async finishRun(id: string, state: Exclude<MaintenanceRunState, "Running">, message: string, finishedAt: Date, fence?: WriterFence): Promise<MaintenanceRun> {
      return fenced(id, fence, (tx) => tx.maintenanceRun.update({ where: { id }, data: { state, message, finishedAt } }));
    },

    /**
     * Asks a Running run to stop after its current step (whichever replica runs it, or the next
     * writer to take it up). Answers the run — as it is, if it had finished — or null when there is none.
     */
    async requestCancel(id: string): Promise<MaintenanceRun | null> {
      const asked = await db.$transaction(async (tx) => {
        const [row] = await tx.maintenanceRun.updateManyAndReturn({ where: { id, state: "Running" }, data: { cancelRequested: true } });
        if (row) await notify(tx, id);
        return row;
      });
      if (!asked) return getRun(id);
      notifications.committed("maintenanceChanged", id);
      return toRun(asked);
    },

    getRun,

    /** Newest first. */
    async listRunsForNode(node: string, limit = 20): Promise<MaintenanceRun[]> {
      return (await db.maintenanceRun.findMany({ where: { node }, orderBy: { startedAt: "desc" }, take: limit })).map(toRun);
    },

    async listRunning(): Promise<MaintenanceRun[]> {
      return (await db.maintenanceRun.findMany({ where: { state: "Running" }, orderBy: { startedAt: "asc" } })).map(toRun);
    },

    /** How every finished run ended, for the metrics. */
    async finishedOutcomes(): Promise<{ outcome: string }[]> {
      return (await db.maintenanceRun.findMany({ where: { state: { not: "Running" } }, select: { state: true } })).map((row) => ({ outcome: row.state }));
    },

    /** Told a run's id when it is stored, changed or asked to stop, in any replica; null when something may have been missed. */
    onChanged(listener: NotifiedListener): () => void {
      return notifications.subscribe("maintenanceChanged", listener);
    },
  };
}

export type MaintenanceRepository = ReturnType<typeof maintenanceRepository>;
