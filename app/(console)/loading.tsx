import styles from "./loading.module.css";

/** Shown in the main region while a page reads its data on the server. */
export default function Loading() {
  return (
    <div className={styles.loading} role="status" aria-live="polite">
      <span className={styles.spinner} aria-hidden="true" />
      Loading…
    </div>
  );
}
