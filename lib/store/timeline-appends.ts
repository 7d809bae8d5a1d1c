import pg from "pg";

// Word that the timeline grew, for whoever tails it (every replica's event feed). It carries an
// event id at most, never the event: a reader always reads what was stored, in id order, so a
// lost or late word costs a little delay and nothing else.
//
// Appends of this process are told as soon as they commit. With PostgreSQL, appends of every
// other process are told too, by LISTEN on a connection of its own; the append transaction
// NOTIFYs, so the word goes out when (and only if) the event is visible. When that connection
// drops, it is made again, and listeners are told `null` (something may have been missed).

export const TIMELINE_APPENDED_CHANNEL = "berth_timeline_appended";

/** An event id that was appended, or null: the timeline may have grown, read to know. */
export type AppendedListener = (id: string | null) => void;

export interface TimelineAppends {
  /** Listens for as long as anyone does; returns the way to stop. */
  subscribe(listener: AppendedListener): () => void;
  /** Tells listeners of an append this process committed. */
  committed(id: string): void;
  close(): Promise<void>;
}

/** The embedded store is one process's: every append is one of its own. */
export function inProcessTimelineAppends(): TimelineAppends {
  const listeners = new Set<AppendedListener>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    committed: (id) => tell(listeners, id),
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
 * PostgreSQL: appends of every process on the database. The LISTEN connection is opened while
 * someone listens and closed when the last one stops.
 */
export function postgresTimelineAppends(databaseUrl: string, options: ListenOptions = {}): TimelineAppends {
  const listeners = new Set<AppendedListener>();
  const retryMs = options.retryMs ?? 500;
  const maxRetryMs = options.maxRetryMs ?? 10_000;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  let delay = retryMs;
  let closed = false;

  const connect = async () => {
    retry = undefined;
    if (closed || listeners.size === 0 || client) return;
    const connection = new pg.Client({ connectionString: databaseUrl, application_name: "berth timeline listener" });
    client = connection;
    const lost = (error?: Error) => {
      if (client !== connection) return;
      client = null;
      connection.removeAllListeners();
      void connection.end().catch(() => {});
      if (error) options.onError?.(error);
      if (!closed && listeners.size > 0) {
        retry = setTimeout(() => void connect(), delay);
        retry.unref?.();
        delay = Math.min(delay * 2, maxRetryMs);
      }
    };
    connection.on("error", (error) => lost(error));
    connection.on("end", () => lost(new Error("the timeline listener's connection to PostgreSQL ended")));
    connection.on("notification", (message) => {
      if (message.channel === TIMELINE_APPENDED_CHANNEL) tell(listeners, message.payload ?? null);
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${TIMELINE_APPENDED_CHANNEL}`);
    } catch (error) {
      lost(error as Error);
      return;
    }
    if (client !== connection) return;
    delay = retryMs;
    // Whatever was appended while no one was listening is read now.
    tell(listeners, null);
  };

  const disconnect = () => {
    clearTimeout(retry);
    retry = undefined;
    const connection = client;
    client = null;
    if (connection) {
      connection.removeAllListeners();
      connection.on("error", () => {});
      return connection.end().catch(() => {});
    }
    return Promise.resolve();
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) void connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) void disconnect();
      };
    },
    committed: (id) => tell(listeners, id),
    async close() {
      closed = true;
      listeners.clear();
      await disconnect();
    },
  };
}

function tell(listeners: Set<AppendedListener>, id: string | null): void {
  for (const listener of listeners) {
    try {
      listener(id);
    } catch (error) {
      console.error("berth: a timeline listener failed", error);
    }
  }
}
