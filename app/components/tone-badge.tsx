import type { ReactNode } from "react";
import styles from "./tone-badge.module.css";

/** How a state reads at a glance. Colour only repeats what the badge's text says. */
export type Tone = "ok" | "progress" | "danger" | "neutral";

/** A state as a small coloured label: a sandbox's phase, a maintenance step, a node's condition. */
export function ToneBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <span className={styles.badge} data-tone={tone}>
      {children}
    </span>
  );
}
