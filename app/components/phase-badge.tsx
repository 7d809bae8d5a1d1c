import type { SandboxPhase } from "@/lib/domain/sandbox-status.ts";
import styles from "./phase-badge.module.css";

type Tone = "ok" | "progress" | "danger" | "neutral";

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

/** A sandbox phase as a small coloured label. The text is the phase itself; colour only repeats it. */
export function PhaseBadge({ phase }: { phase: SandboxPhase }) {
  return (
    <span className={styles.badge} data-tone={TONES[phase]}>
      {phase}
    </span>
  );
}
