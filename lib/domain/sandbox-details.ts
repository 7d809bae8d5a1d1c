import { z } from "zod";
import { disruptionRecordSchema, recoveryRecordSchema } from "./disruption-history.ts";
import { durableStateSchema } from "./durable-state.ts";
import { protectionSchema } from "./protection.ts";
import { handoutSchema } from "./sandbox-handout.ts";

// What a sandbox's derived status carries besides phase and conditions — the last disruption and
// its recovery, eviction protection, the durable-state verdict on the current pod, when the
// state marker was written in it, and its place in a warm pool or with a claim — typed once, here. Each fact is read on its own: a stored value
// that no longer fits (written by an older Berth, or edited by hand) reads as absent, and the
// next derivation writes a fresh one, rather than making the whole record unreadable.

/** The state marker was written in this pod (so a later replacement can be checked against it). */
export const markerWrittenSchema = z.object({
  podUid: z.string(),
  writtenAt: z.iso.datetime(),
});
export type MarkerWritten = z.infer<typeof markerWrittenSchema>;

export const sandboxDetailsSchema = z.object({
  disruption: disruptionRecordSchema.nullish().catch(null),
  recovery: recoveryRecordSchema.nullish().catch(null),
  protection: protectionSchema.nullish().catch(null),
  durableState: durableStateSchema.nullish().catch(null),
  stateMarker: markerWrittenSchema.nullish().catch(null),
  /** Waiting in a warm pool, or handed to a claim (warm or cold). */
  handout: handoutSchema.nullish().catch(null),
});
export type SandboxDetails = z.infer<typeof sandboxDetailsSchema>;
