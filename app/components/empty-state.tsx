import type { ReactNode } from "react";
import styles from "./empty-state.module.css";

/**
 * What a page shows when it has nothing to list: an honest title and why, never placeholder rows.
 * `headingLevel` keeps the document outline right (the page's h1 sits above it).
 */
export function EmptyState({
  icon,
  title,
  children,
  headingLevel = 2,
}: {
  icon?: ReactNode;
  title: string;
  children: ReactNode;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className={styles.empty}>
      {icon ? (
        <div className={styles.icon} aria-hidden="true">
          {icon}
        </div>
      ) : null}
      <Heading className={styles.title}>{title}</Heading>
      <div className={styles.body}>{children}</div>
    </div>
  );
}
