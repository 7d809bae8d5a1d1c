import type { DisruptionDetails, DisruptionRecord } from "../domain/disruption-history.ts";
import type { SandboxDetails } from "../domain/sandbox-details.ts";

// The last disruption and its recovery in a sandbox status's `details`. The derivation is
// level-triggered, yet a pod that is gone no longer shows why it went: so what happened is
// written here once and carried from one derived status to the next, until the next disruption
// replaces it.

export {
  DISRUPTION_REASONS,
  disruptionReasonSchema,
  RECOVERING_REASONS,
  RECOVERY_END_REASONS,
  recoveryReasonSchema,
  disruptionRecordSchema,
  recoveryRecordSchema,
  disruptionDetailsSchema,
  type DisruptionReason,
  type RecoveryReason,
  type DisruptionRecord,
  type RecoveryRecord,
  type DisruptionDetails,
} from "../domain/disruption-history.ts";

export const NO_DISRUPTION: DisruptionDetails = { disruption: null, recovery: null };

/** The disruption history in a status's details. */
export function readDisruptionDetails(details: SandboxDetails): DisruptionDetails {
  return { disruption: details.disruption ?? null, recovery: details.recovery ?? null };
}

/** The details with this history written in; untouched when there is none, so other facts stay as they are. */
export function writeDisruptionDetails(details: SandboxDetails, history: DisruptionDetails): SandboxDetails {
  return history.disruption ? { ...details, disruption: history.disruption, recovery: history.recovery } : details;
}

/** A disruption is open until its sandbox is Ready again or stopped; a Failed pod awaiting recovery is still open. */
export function isOpen(history: DisruptionDetails): history is DisruptionDetails & { disruption: DisruptionRecord } {
  return history.disruption !== null && history.recovery?.reason !== "Recovered" && history.recovery?.reason !== "Stopped";
}
