import { useId, type ReactNode } from "react";
import styles from "./sandbox-detail.module.css";

/** A titled panel of the detail page; a landmark region named by its heading. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className={styles.card} aria-labelledby={id}>
      <h2 id={id} className={styles.cardTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}
