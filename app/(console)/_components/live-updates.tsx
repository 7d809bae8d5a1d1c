"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import styles from "./live-updates.module.css";

type StreamState = "connecting" | "live" | "reconnecting";

const LABELS: Record<StreamState, string> = {
  connecting: "Connecting to live updates…",
  live: "Live",
  reconnecting: "Live updates interrupted — reconnecting",
};

/** Changes in a burst (a drain moves many sandboxes) refresh the lists once, not once per event. */
const REFRESH_AFTER_MS = 250;
const RECONNECT_AFTER_MS = 3_000;

/**
 * The one event stream of the tab (GET /api/v1/events). Each timeline event marks what it is
 * about as stale in the react-query cache, so every page on screen refetches what changed. The
 * browser resends Last-Event-ID when it reconnects, and a new stream started after the browser
 * gave up resumes from the last id seen (`?lastEventId=`), so nothing is lost across a drop;
 * after a drop everything is refreshed once, and so after a `reload` (the server's answer to a
 * last id too far behind to replay). Shows plainly whether updates are live.
 */
export function LiveUpdates() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<StreamState>("connecting");
  const pending = useRef<Set<string>>(new Set());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let dropped = false;
    let lastEventId: string | null = null;
    const flush = () => {
      timer.current = null;
      void queryClient.invalidateQueries({ queryKey: ["sandboxes"] });
      void queryClient.invalidateQueries({ queryKey: ["volumes"] });
      void queryClient.invalidateQueries({ queryKey: ["nodes"] });
      for (const id of pending.current) void queryClient.invalidateQueries({ queryKey: ["sandbox", id] });
      pending.current.clear();
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
      source.addEventListener("timeline", (event) => {
        const message = event as MessageEvent<string>;
        if (message.lastEventId) lastEventId = message.lastEventId;
        const { sandboxId } = JSON.parse(message.data) as { sandboxId: string | null };
        if (sandboxId) pending.current.add(sandboxId);
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
