import { createParser } from "eventsource-parser";
import { ApiProblem } from "../client/api-problem.ts";
import type { BerthClient } from "../client/berth-client.ts";
import { timelineEventSchema, type TimelineEvent } from "../domain/timeline.ts";

// Berth's event stream (GET /api/v1/events) followed as the browser's EventSource follows it:
// each timeline event handed on once, and a dropped stream resumed from the last event id it
// carried, after the pause the server asked for — so a watch loses nothing across a drop.

export interface FollowOptions {
  /** Only this sandbox's events. */
  sandbox?: string;
  onEvent: (event: TimelineEvent) => void;
  /** The server will not replay that far back: read everything afresh. */
  onReload: () => void;
  /** The stream is open: every event from now on will be handed on. */
  onOpen?: () => void;
  /** The stream dropped and will be resumed (`resumeFrom` null: from now). */
  onDrop?: (resumeFrom: string | null) => void;
  signal: AbortSignal;
}

const DEFAULT_RETRY_MS = 2_000;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/** Follows until the signal aborts; a refusal (401, 403, 429) ends it with the problem. */
export async function followEvents(client: BerthClient, options: FollowOptions): Promise<void> {
  let lastEventId: string | null = null;
  let retryMs = DEFAULT_RETRY_MS;
  while (!options.signal.aborted) {
    try {
      const query = { ...(options.sandbox ? { sandbox: options.sandbox } : {}), ...(lastEventId ? { lastEventId } : {}) };
      const response = await client.send("events", { query, signal: options.signal }, { headers: { Accept: "text/event-stream" } });
      options.onOpen?.();
      const parser = createParser({
        onEvent: (message) => {
          if (message.id) lastEventId = message.id;
          if (message.event === "reload") options.onReload();
          if (message.event === "timeline") options.onEvent(timelineEventSchema.parse(JSON.parse(message.data)));
        },
        onRetry: (ms) => (retryMs = ms),
      });
      const decoder = new TextDecoder();
      for await (const chunk of response.body ?? []) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch (error) {
      if (options.signal.aborted) return;
      // Refused, not dropped: following again would be refused again.
      if (error instanceof ApiProblem && error.status >= 400 && error.status < 500) throw error;
    }
    if (options.signal.aborted) return;
    options.onDrop?.(lastEventId);
    await pause(retryMs, options.signal);
  }
}

/**
 * Starts following and resolves once the stream is open, so that what the command reads next
 * misses nothing that happens after it; `done` settles when the following ends.
 */
export async function startFollowing(client: BerthClient, options: FollowOptions): Promise<{ done: Promise<void> }> {
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const done = followEvents(client, {
    ...options,
    onOpen: () => {
      opened();
      options.onOpen?.();
    },
  });
  await Promise.race([open, done]);
  return { done };
}

/** What a follower tells the person when the stream drops. */
export const dropNotice = (resumeFrom: string | null) => `the event stream dropped; resuming${resumeFrom ? ` after event ${resumeFrom}` : ""}\n`;

/** Ctrl-C ends the following (and the command) cleanly. */
export function untilInterrupted(): AbortSignal {
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  return stop.signal;
}
