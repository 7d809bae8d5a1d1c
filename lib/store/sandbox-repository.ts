import { selectsSpec, type LabelSelector } from "../domain/label-selector.ts";
import { sandboxRecordSchema, type Page, type SandboxOrigin, type SandboxRecord } from "../domain/sandbox-record.ts";
import type { SandboxStatus } from "../domain/sandbox-status.ts";
import type { WorkspaceBackend } from "../domain/gateway-defaults.ts";
import { logOf } from "../platform/logger.ts";
import { decodeCursor, encodeCursor, UUID_SHAPE } from "./cursor.ts";
import { type Db, type Tx, isNotFound, isUniqueViolation, toJson, Prisma } from "./prisma-client.ts";
import { STORE_CHANNELS, type NotifiedListener, type StoreNotifications } from "./store-notifications.ts";
import { fencedWrite, type WriterFence } from "./writer-term-repository.ts";

export class SandboxNameTakenError extends Error {
  constructor(
    readonly namespace: string,
    readonly sandboxName: string,
  ) {
    super(`A sandbox named ${sandboxName} already exists in namespace ${namespace}. Choose another name, or delete that sandbox first.`);
    this.name = "SandboxNameTakenError";
  }
}

export class SandboxNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`No sandbox has the id ${id}.`);
    this.name = "SandboxNotFoundError";
  }
}

export interface NewSandbox {
  id?: string;
  name: string;
  namespace: string;
  spec: Record<string, unknown>;
  workspaceBackend: WorkspaceBackend;
  /** Defaults to "berth"; a sandbox found in the cluster is recorded as provisioned already. */
  origin?: SandboxOrigin;
  provisionedAt?: Date;
}

/** Why a sandbox's record was closed, when Berth did not delete it itself. */
export interface DeletionCause {
  reason: string;
  message: string;
}

const liveKey = (namespace: string, name: string) => `${namespace}/${name}`;

type SandboxRow = Prisma.SandboxGetPayload<object>;

function toRecord(row: SandboxRow): SandboxRecord {
  return sandboxRecordSchema.parse({ ...row, details: row.statusDetails });
}

export function sandboxRepository(db: Db, notifications: StoreNotifications) {
  const writtenListeners = new Set<(record: SandboxRecord) => void>();
  /**
   * Tells every replica the record changed, once the write is committed, and then this
   * process's followers of written records the record itself.
   */
  const announce = async <T extends SandboxRecord | undefined>(id: string, written: T): Promise<T> => {
    if (notifications.crossProcess) await db.$queryRaw`SELECT 1 FROM pg_notify(${STORE_CHANNELS.sandboxChanged}, ${id})`;
    notifications.committed("sandboxChanged", id);
    for (const listener of written ? writtenListeners : []) {
      try {
        listener(written!);
      } catch (error) {
        logOf("store").error({ err: error }, "a follower of written sandboxes failed");
      }
    }
    return written;
  };
  const repository = {
    /**
     * Records a new live sandbox; its name must be free among live sandboxes of its namespace.
     * With a fence (the writer adopting a Sandbox it found), only while its term is the writer's.
     */
    async recordSandbox(sandbox: NewSandbox, fence?: WriterFence): Promise<SandboxRecord> {
      try {
        const row = await fencedWrite(db, fence, (client) => client.sandbox.create({
          data: {
            id: sandbox.id,
            name: sandbox.name,
            namespace: sandbox.namespace,
            liveKey: liveKey(sandbox.namespace, sandbox.name),
            spec: toJson(sandbox.spec),
            workspaceBackend: sandbox.workspaceBackend,
            origin: sandbox.origin ?? "berth",
            provisionedAt: sandbox.provisionedAt ?? null,
          },
        }));
        return await announce(row.id, toRecord(row));
      } catch (error) {
        if (isUniqueViolation(error)) throw new SandboxNameTakenError(sandbox.namespace, sandbox.name);
        throw error;
      }
    },

    /** The record with this id; null for ids that are not ours (not even UUIDs). */
    async getSandbox(id: string): Promise<SandboxRecord | null> {
      if (!UUID_SHAPE.test(id)) return null;
      const row = await db.sandbox.findUnique({ where: { id } });
      return row ? toRecord(row) : null;
    },

    /** The records with these ids, in no order; ids that are not ours are left out. */
    async getSandboxes(ids: readonly string[]): Promise<SandboxRecord[]> {
      const ours = ids.filter((id) => UUID_SHAPE.test(id));
      if (ours.length === 0) return [];
      return (await db.sandbox.findMany({ where: { id: { in: ours } } })).map(toRecord);
    },

    async findLiveSandbox(namespace: string, name: string): Promise<SandboxRecord | null> {
      const row = await db.sandbox.findUnique({ where: { liveKey: liveKey(namespace, name) } });
      return row ? toRecord(row) : null;
    },

    /**
     * Newest first. Deleted sandboxes only when asked for: they are history. A label selector is
     * matched here on the stored spec, reading on until the page is full.
     */
    async listSandboxes(request: {
      limit: number;
      cursor?: string;
      namespace?: string;
      /** Only these namespaces (what the caller may see). */
      namespaces?: ReadonlySet<string>;
      labelSelector?: LabelSelector;
      includeDeleted?: boolean;
    }): Promise<Page<SandboxRecord>> {
      const where = {
        ...(request.includeDeleted ? {} : { deletedAt: null }),
        ...(request.namespace ? { namespace: request.namespace } : {}),
        ...(request.namespaces ? { namespace: { in: [...request.namespaces].filter((one) => !request.namespace || one === request.namespace) } } : {}),
      };
      const found: SandboxRecord[] = [];
      let cursor = request.cursor ? decodeCursor(request.cursor, UUID_SHAPE) : undefined;
      // One more than the page, to know whether another follows; a selector reads on in larger batches.
      const batch = request.labelSelector?.length ? Math.max(request.limit + 1, 500) : request.limit + 1;
      let exhausted = false;
      while (found.length <= request.limit && !exhausted) {
        const rows = await db.sandbox.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: batch, ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}) });
        found.push(...rows.map(toRecord).filter((record) => selectsSpec(request.labelSelector, record.spec)));
        exhausted = rows.length < batch;
        cursor = rows.at(-1)?.id;
      }
      const items = found.slice(0, request.limit);
      return { items, nextCursor: found.length > request.limit ? encodeCursor(items.at(-1)!.id) : null };
    },

    /** Live sandboxes in a namespace, being made ones included: what a per-namespace quota counts. */
    async countLiveIn(namespace: string): Promise<number> {
      return db.sandbox.count({ where: { namespace, deletedAt: null } });
    },

    /** The namespaces that hold live sandboxes. */
    async liveNamespaces(): Promise<Set<string>> {
      const rows = await db.sandbox.findMany({ where: { deletedAt: null }, distinct: ["namespace"], select: { namespace: true } });
      return new Set(rows.map((row) => row.namespace));
    },

    /** The ids of every live sandbox, in no order: a resync's work list, read in one small query. */
    async liveIds(): Promise<string[]> {
      return (await db.sandbox.findMany({ where: { deletedAt: null }, select: { id: true } })).map((row) => row.id);
    },

    /** Every live sandbox, newest first, read a page at a time. */
    async listAllLive(): Promise<SandboxRecord[]> {
      const all: SandboxRecord[] = [];
      let cursor: string | undefined;
      do {
        const page = await repository.listSandboxes({ limit: 500, cursor });
        all.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return all;
    },

    /**
     * Replaces the derived status with what was last observed (level-triggered: whole, not a
     * delta). With a fence, only while its term is the writer's (DeposedWriterError otherwise).
     */
    async saveStatus(id: string, status: SandboxStatus, fence?: WriterFence): Promise<SandboxRecord> {
      const update = (client: Db | Tx) =>
        client.sandbox.update({
          where: { id },
          data: {
            phase: status.phase,
            reason: status.reason,
            message: status.message,
            conditions: toJson(status.conditions),
            nodeName: status.nodeName,
            podName: status.podName,
            podUid: status.podUid,
            previousNodeName: status.previousNodeName,
            previousPodUid: status.previousPodUid,
            statusDetails: toJson(status.details),
          },
        });
      try {
        return await announce(id, toRecord(await fencedWrite(db, fence, update)));
      } catch (error) {
        if (isNotFound(error)) throw new SandboxNotFoundError(id);
        throw error;
      }
    },

    /** Its create finished: everything it needed exists in the cluster. */
    async markProvisioned(id: string, at: Date): Promise<SandboxRecord> {
      return announce(id, toRecord(await db.sandbox.update({ where: { id }, data: { provisionedAt: at } })));
    },

    /** The sandbox is gone from the cluster; its record and timeline stay, and its name is free again. */
    async markDeleted(id: string, at: Date, cause?: DeletionCause, fence?: WriterFence): Promise<SandboxRecord> {
      try {
        const row = await fencedWrite(db, fence, (client) =>
          client.sandbox.update({
            where: { id },
            data: { deletedAt: at, liveKey: null, phase: "Deleted", reason: cause?.reason ?? null, message: cause?.message ?? null },
          }),
        );
        return await announce(id, toRecord(row));
      } catch (error) {
        if (isNotFound(error)) throw new SandboxNotFoundError(id);
        throw error;
      }
    },

    /** Removes a record that never became a sandbox (its creation failed and was undone). */
    async discardUncreated(id: string): Promise<void> {
      await db.sandbox.deleteMany({ where: { id } });
      await announce(id, undefined);
    },

    /** Told a record's id when it is written, in this replica or (with PostgreSQL) any other. */
    onChanged(listener: NotifiedListener): () => void {
      return notifications.subscribe("sandboxChanged", listener);
    },

    /**
     * Given each record this process writes, as stored, right after its id went to onChanged
     * (another replica's writes come to onChanged alone: read them).
     */
    onWritten(listener: (record: SandboxRecord) => void): () => void {
      writtenListeners.add(listener);
      return () => void writtenListeners.delete(listener);
    },
  };
  return repository;
}

export type SandboxRepository = ReturnType<typeof sandboxRepository>;
