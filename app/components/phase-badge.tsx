import type { SandboxPhase } from "@/lib/domain/sandbox-status.ts";
import { ToneBadge, type Tone } from "./tone-badge.tsx";

const TONES: Record<SandboxPhase, Tone> = {
  Pending: "progress",
  Provisioning: "progress",
  Ready: "ok",
  Checkpointing: "progress",
  Disrupted: "danger",
  Recovering: "progress",
  Stopping: "progress",
  Stopped: "neutral",
  Starting: "progress",
  Error: "danger",
  Deleting: "progress",
  Deleted: "neutral",
};

/** A sandbox phase as a small coloured label. The text is the phase itself. */
export function PhaseBadge({ phase }: { phase: SandboxPhase }) {
  return <ToneBadge tone={TONES[phase]}>{phase}</ToneBadge>;
}
