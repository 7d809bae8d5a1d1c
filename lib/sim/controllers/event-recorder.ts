import type { Clock } from "../clock.ts";
import { refs, timestamp } from "../k8s-objects.ts";
import type { StoredObject } from "../objects.ts";
import type { ObjectStore } from "../store/object-store.ts";

// core/v1 Events as kubelet, scheduler and controllers emit them: one Event per
// (object, reason, message, source), its count and lastTimestamp bumped when it repeats.

export type EventType = "Normal" | "Warning";

export class EventRecorder {
  /** Where the Event of each (object, reason, message, source) is, so repeats need no scan. */
  private readonly seen = new Map<string, string>();
  /** Makes names unique when one object gets several events in the same millisecond. */
  private sequence = 0;

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
  ) {}

  record(involved: StoredObject, type: EventType, reason: string, message: string, component: string, host?: string): void {
    const namespace = involved.metadata.namespace ?? "default";
    const now = timestamp(this.clock.now());
    const identity = `${involved.metadata.uid}|${reason}|${message}|${component}`;
    const seenName = this.seen.get(identity);
    const existing = seenName ? this.store.peek(refs.events, namespace, seenName) : undefined;
    // An expired or deleted event is forgotten here too, so the map does not outgrow the store.
    if (seenName && !existing) this.seen.delete(identity);
    if (existing) {
      this.store.update(refs.events, { ...existing, metadata: { ...existing.metadata }, count: Number(existing.count ?? 1) + 1, lastTimestamp: now });
      return;
    }
    const created = this.store.create(refs.events, {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: `${involved.metadata.name}.${(BigInt(this.clock.now().getTime()) * 1_000_000n + BigInt(this.sequence++ % 1_000_000)).toString(16)}`, namespace },
      involvedObject: {
        kind: involved.kind,
        namespace: involved.metadata.namespace,
        name: involved.metadata.name,
        uid: involved.metadata.uid,
        apiVersion: involved.apiVersion,
        resourceVersion: involved.metadata.resourceVersion,
      },
      reason,
      message,
      source: { component, ...(host ? { host } : {}) },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: component,
      reportingInstance: host ?? "",
    });
    this.seen.set(identity, created.metadata.name);
  }
}
