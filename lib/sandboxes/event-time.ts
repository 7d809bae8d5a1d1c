import type { CoreV1Event } from "@kubernetes/client-node";

/** When a Kubernetes Event last happened: its newest timestamp, whichever of them it carries. */
export function eventTime(event: CoreV1Event): number {
  const time = event.lastTimestamp ?? event.eventTime ?? event.firstTimestamp ?? event.metadata?.creationTimestamp;
  return time ? new Date(time as unknown as string).getTime() : 0;
}
