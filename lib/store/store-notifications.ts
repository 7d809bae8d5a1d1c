import pg from "pg";
import { logOf } from "../platform/logger.ts";

// Word that something changed in the store, for whoever follows it (every replica): an id at
// most, never the thing itself. A follower always reads what was stored, so a lost or late word
// costs a little delay and nothing else.
//
// Writes of this process are told as soon as they commit. With PostgreSQL, writes of every other
// process are told too, by LISTEN on a connection of its own; the writing transaction NOTIFYs,
// so the word goes out when (and only if) the change is visible. When that connection drops, it
// is made again, and every listener is told `null` (something may have been missed: look).

export const STORE_CHANNELS = {
  /** A timeline event was appended; its id. */
  timelineAppended: "berth_timeline_appended",
  /** An operation (a sandbox's create, delete or checkpoint) ended, in whichever replica; what it was on. */
  operationSettled: "berth_operation_settled",
  /** A sandbox's record was written (made, its status saved, closed); its id. */
  sandboxChanged: "berth_sandbox_changed",
  /** A maintenance run was stored, changed, or asked to stop; its id. */
  maintenanceChanged: "berth_maintenance_changed",
} as const;

export type StoreChannel = keyof typeof STORE_CHANNELS;

/** An id that changed, or null: something may have, read to know. */
export type NotifiedListener = (id: string | null) => void;

export interface StoreNotifications {
  /** Whether other processes listen too (PostgreSQL): a write must then NOTIFY for them. */
  readonly crossProcess: boolean;
  /** Listens for as long as anyone does; returns the way to stop. */
  subscribe(channel: StoreChannel, listener: NotifiedListener): () => void;
  /** Tells listeners of a change this process committed. */
  committed(channel: StoreChannel, id: string): void;
  close(): Promise<void>;
}

type Listeners = Map<StoreChannel, Set<NotifiedListener>>;

function listenerSets(): { listeners: Listeners; count: () => number; add: (channel: StoreChannel, listener: NotifiedListener) => () => void } {
  const listeners: Listeners = new Map();
  const count = () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0);
  const add = (channel: StoreChannel, listener: NotifiedListener) => {
    const set = listeners.get(channel) ?? new Set();
    listeners.set(channel, set);
    set.add(listener);
    return () => void set.delete(listener);
  };
  return { listeners, count, add };
}

/** The embedded store is one process's: every change is one of its own. */
export function inProcessNotifications(): StoreNotifications {
  const { listeners, add } = listenerSets();
  return {
    crossProcess: false,
    subscribe: add,
    committed: (channel, id) => tell(listeners.get(channel), id),
    close: async () => listeners.clear(),
  };
}

export interface ListenOptions {
  /** How long to wait before connecting again after the connection failed; doubled up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  onError?: (error: Error) => void;
}

/**
 * PostgreSQL: changes of every process on the database. The LISTEN connection is open while
 * someone listens and closed when the last one stops.
 */
export function postgresNotifications(databaseUrl: string, options: ListenOptions = {}): StoreNotifications {
  const { listeners, count, add } = listenerSets();
  const byName = new Map<string, StoreChannel>(Object.entries(STORE_CHANNELS).map(([channel, name]) => [name, channel as StoreChannel]));
  const retryMs = options.retryMs ?? 500;
  const maxRetryMs = options.maxRetryMs ?? 10_000;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  let delay = retryMs;
  let closed = false;

  const connect = async () => {
    retry = undefined;
    if (closed || count() === 0 || client) return;
    const connection = new pg.Client({ connectionString: databaseUrl, application_name: "berth store listener" });
    client = connection;
    const lost = (error?: Error) => {
      if (client !== connection) return;
      client = null;
      connection.removeAllListeners();
      connection.on("error", () => {});
      void connection.end().catch(() => {});
      if (error) options.onError?.(error);
      if (!closed && count() > 0) {
        retry = setTimeout(() => void connect(), delay);
        retry.unref?.();
        delay = Math.min(delay * 2, maxRetryMs);
      }
    };
    connection.on("error", (error) => lost(error));
    connection.on("end", () => lost(new Error("the store listener's connection to PostgreSQL ended")));
    connection.on("notification", (message) => {
      const channel = byName.get(message.channel);
      if (channel) tell(listeners.get(channel), message.payload ?? null);
    });
    try {
      await connection.connect();
      for (const name of Object.values(STORE_CHANNELS)) await connection.query(`LISTEN ${name}`);
    } catch (error) {
      lost(error as Error);
      return;
    }
    if (client !== connection) return;
    delay = retryMs;
    // Whatever changed while no one was listening is read now.
    for (const set of listeners.values()) tell(set, null);
  };

  const disconnect = async () => {
    clearTimeout(retry);
    retry = undefined;
    const connection = client;
    client = null;
    if (!connection) return;
    connection.removeAllListeners();
    connection.on("error", () => {});
    await connection.end().catch(() => {});
  };

  return {
    crossProcess: true,
    subscribe(channel, listener) {
      const remove = add(channel, listener);
      if (count() === 1) void connect();
      return () => {
        remove();
        if (count() === 0) void disconnect();
      };
    },
    committed: (channel, id) => tell(listeners.get(channel), id),
    async close() {
      closed = true;
      listeners.clear();
      await disconnect();
    },
  };
}

function tell(listeners: Set<NotifiedListener> | undefined, id: string | null): void {
  for (const listener of listeners ?? []) {
    try {
      listener(id);
    } catch (error) {
      logOf("store").error({ err: error }, "a store listener failed");
    }
  }
}
