import type { ReactNode } from "react";
import styles from "./sandbox-detail.module.css";

/** A table that may scroll sideways on a narrow screen: focusable and named, so a keyboard can scroll it. */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.scrollX} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
