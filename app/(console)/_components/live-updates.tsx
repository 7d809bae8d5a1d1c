"use client";

import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import { sandboxUpdateSchema } from "@/lib/domain/sandbox-update.ts";
import { timelineEventSchema, type TimelineEvent } from "@/lib/domain/timeline.ts";
import type { SandboxRow } from "../sandboxes/_components/sandbox-rows.ts";
import { recordWith, rowsWith, timelineWith } from "./pushed-updates.ts";
import styles from "./live-updates.module.css";

type StreamState = "connecting" | "live" | "reconnecting";

const LABELS: Record<StreamState, string> = {
  connecting: "Connecting to live updates…",
  live: "Live",
  reconnecting: "Live updates interrupted — reconnecting",
};

/** Lists the stream does not carry (claims, nodes) are read again once after a burst (a drain moves many sandboxes), not once per event. */
const REFRESH_AFTER_MS = 250;
const RECONNECT_AFTER_MS = 3_000;

/**
 * Puts a push into what the cache holds under `key`, and again once a read of it that is under
 * way lands: that read may have left the server before the pushed change was made.
 */
function applyPush<T>(queryClient: QueryClient, key: readonly unknown[], apply: (held: T | undefined) => T | undefined): void {
  queryClient.setQueryData<T>(key, apply);
  const reading = queryClient.getQueryCache().find<T>({ queryKey: key, exact: true })?.promise;
  // A turn later: the read's own answer goes into the cache first.
  if (reading) reading.then(() => setTimeout(() => queryClient.setQueryData<T>(key, apply)), () => {});
}

/** A sandbox as the stream says it now stands, put where the page holds it: its row, its record. */
function applySandbox(queryClient: QueryClient, data: string): string | null {
  const parsed = sandboxUpdateSchema.safeParse(JSON.parse(data));
  if (!parsed.success) return null;
  const update = parsed.data;
  applyPush<SandboxRow[]>(queryClient, ["sandboxes"], (rows) => rowsWith(rows, update));
  applyPush<SandboxRecord>(queryClient, ["sandbox", update.id], (record) => recordWith(record, update));
  // Gone: its page (if open) reads what became of it.
  if (!update.record) void queryClient.invalidateQueries({ queryKey: ["sandbox", update.id], exact: true });
  return update.id;
}

/** A timeline event, appended to its sandbox's timeline where the page holds it. */
function applyEvent(queryClient: QueryClient, event: TimelineEvent): void {
  if (!event.sandboxId) return;
  applyPush<TimelineEvent[]>(queryClient, ["sandbox", event.sandboxId, "timeline"], (timeline) => timelineWith(timeline, event));
  if (event.type === "Checkpoint") void queryClient.invalidateQueries({ queryKey: ["sandbox", event.sandboxId, "checkpoints"] });
}

/**
 * The one event stream of the tab (GET /api/v1/events). What it pushes goes straight into the
 * react-query cache: a `sandbox` message (the sandbox as it now stands, sent before each event
 * about it) replaces its row and record, and each timeline event is appended to its sandbox's
 * timeline, so a page on screen follows the cluster without asking the server again. Claims and
 * nodes, which the stream does not carry, are read again once per burst, where a page shows
 * them. The browser resends Last-Event-ID when it reconnects, and a new stream started after the
 * browser gave up resumes from the last id seen (`?lastEventId=`); after a drop everything is
 * read afresh once (replays carry no sandbox states), and so after a `reload` (the server's answer
 * to a last id too far behind to replay). Shows plainly whether updates are live.
 */
export function LiveUpdates() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<StreamState>("connecting");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let dropped = false;
    let lastEventId: string | null = null;
    /** The sandbox the last `sandbox` message brought, so that its event needs nothing read again. */
    let brought: string | null = null;
    const stale = new Set<string>();
    const flush = () => {
      timer.current = null;
      void queryClient.invalidateQueries({ queryKey: ["volumes"] });
      void queryClient.invalidateQueries({ queryKey: ["nodes"] });
      // Events whose sandbox the server did not know yet (its list still loading): read as before.
      if (stale.size > 0) void queryClient.invalidateQueries({ queryKey: ["sandboxes"] });
      for (const id of stale) void queryClient.invalidateQueries({ queryKey: ["sandbox", id] });
      stale.clear();
    };
    const connect = () => {
      source = new EventSource(lastEventId ? `/api/v1/events?lastEventId=${encodeURIComponent(lastEventId)}` : "/api/v1/events");
      source.onopen = () => {
        setState("live");
        if (dropped) void queryClient.invalidateQueries();
        dropped = false;
      };
      source.onerror = () => {
        dropped = true;
        setState("reconnecting");
        // The browser retries a dropped stream by itself, but gives up on an error answer
        // (a server restarting says 503): then start a new stream after a pause.
        if (source?.readyState === EventSource.CLOSED) retry = setTimeout(connect, RECONNECT_AFTER_MS);
      };
      // The server will not replay that much: read everything afresh, and follow from its newest id.
      source.addEventListener("reload", (event) => {
        const message = event as MessageEvent<string>;
        if (message.lastEventId) lastEventId = message.lastEventId;
        void queryClient.invalidateQueries();
      });
      source.addEventListener("sandbox", (event) => {
        brought = applySandbox(queryClient, (event as MessageEvent<string>).data);
      });
      source.addEventListener("timeline", (event) => {
        const message = event as MessageEvent<string>;
        if (message.lastEventId) lastEventId = message.lastEventId;
        const parsed = timelineEventSchema.safeParse(JSON.parse(message.data));
        if (parsed.success) {
          applyEvent(queryClient, parsed.data);
          if (parsed.data.sandboxId && parsed.data.sandboxId !== brought) stale.add(parsed.data.sandboxId);
        }
        brought = null;
        timer.current ??= setTimeout(flush, REFRESH_AFTER_MS);
      });
    };
    connect();
    return () => {
      source?.close();
      if (retry) clearTimeout(retry);
      if (timer.current) clearTimeout(timer.current);
    };
  }, [queryClient]);

  return (
    <span className={styles.indicator} data-state={state} role="status" aria-live="polite">
      <span className={styles.dot} aria-hidden="true" />
      {LABELS[state]}
    </span>
  );
}
