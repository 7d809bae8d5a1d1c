import { formatTimestamp } from "@/app/components/format.ts";
import type { TimelineEvent } from "@/lib/domain/timeline.ts";
import styles from "./timeline.module.css";

/** The timeline as text, newest first: the chart's textual equivalent, and where every message is read in full. */
export function TimelineEventList({ events }: { events: TimelineEvent[] }) {
  const newestFirst = [...events].reverse();
  return (
    <div className={styles.events} role="region" aria-label="Timeline events, newest first" tabIndex={0}>
      {newestFirst.length === 0 ? <p className={styles.muted}>Nothing has happened yet.</p> : null}
      <ol className={styles.eventList}>
        {newestFirst.map((event) => (
          <li key={event.id} className={styles.event} data-type={event.type}>
            <p className={styles.eventHead}>
              <time dateTime={event.occurredAt.toISOString()}>{formatTimestamp(event.occurredAt).slice(11)}</time>
              <span className={styles.eventType}>{event.type}</span>
              <strong>{event.reason}</strong>
            </p>
            <p className={styles.eventMessage}>{event.message}</p>
          </li>
        ))}
      </ol>
    </div>
  );
}
