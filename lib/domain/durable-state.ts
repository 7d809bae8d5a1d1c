import { z } from "zod";
import type { WorkspaceBackend } from "./gateway-defaults.ts";

// Whether a sandbox's durable state came back after its pod was replaced — decided, not
// guessed: Berth writes a marker into the workspace when the sandbox becomes Ready (and at each
// checkpoint) and reads it back in the replacement pod.

/** Where the marker lives, relative to the workspace mount path. */
export const STATE_MARKER_PATH = ".berth/state-marker.json";

export const stateMarkerSchema = z.object({
  sandboxId: z.string(),
  podUid: z.string(),
  writtenAt: z.iso.datetime(),
  writtenOn: z.enum(["ready", "checkpoint"]),
});
export type StateMarker = z.infer<typeof stateMarkerSchema>;

/** What reading the marker in the replacement pod found. */
export type MarkerReading = { kind: "found"; marker: StateMarker } | { kind: "missing" } | { kind: "unreadable"; why: string };

/** What never survives a pod replacement, whatever the workspace: said with every verdict. */
export const NEVER_SURVIVES = ["/tmp and everything outside the workspace", "running processes", "open exec sessions"] as const;

export const durableStateSchema = z.object({
  verdict: z.enum(["restored", "lost", "unverifiable"]),
  why: z.string(),
  /** The pod the marker was read in. */
  podUid: z.string(),
  checkedAt: z.iso.datetime(),
  neverSurvives: z.array(z.string()),
});
export type DurableState = z.infer<typeof durableStateSchema>;

export function durableStateVerdict(input: { sandboxId: string; backend: WorkspaceBackend; reading: MarkerReading; podUid: string; now: Date }): DurableState {
  const base = { podUid: input.podUid, checkedAt: input.now.toISOString(), neverSurvives: [...NEVER_SURVIVES] };
  if (input.backend === "ephemeral") {
    return { ...base, verdict: "lost", why: "The workspace is ephemeral (an emptyDir): it died with the pod, and the new one started from the image's seed" };
  }
  const { reading } = input;
  if (reading.kind === "unreadable") return { ...base, verdict: "unverifiable", why: `The marker could not be read in the new pod (${reading.why}); nothing is known either way` };
  if (reading.kind === "missing" || reading.marker.sandboxId !== input.sandboxId) {
    return { ...base, verdict: "lost", why: "The marker written before the disruption is not in the workspace: the claim is new or was emptied" };
  }
  return { ...base, verdict: "restored", why: `The marker pod ${reading.marker.podUid} wrote at ${reading.marker.writtenAt} (${reading.marker.writtenOn}) was read back in the new pod` };
}
