import type { WarmPoolView } from "@/lib/domain/template-view.ts";
import styles from "./live-template-table.module.css";

/** A pool's ready sandboxes against its target, as a bar and in words. */
export function WarmPoolMeter({ pool }: { pool: WarmPoolView }) {
  const starting = Math.max(pool.members - pool.ready, 0);
  return (
    <div className={styles.meter}>
      <span>
        {pool.ready} of {pool.replicas} ready
        {starting > 0 ? <span className={styles.sub}>{starting} starting</span> : null}
      </span>
      {pool.replicas > 0 ? <meter className={styles.bar} min={0} max={pool.replicas} value={Math.min(pool.ready, pool.replicas)} aria-label={`${pool.ready} of ${pool.replicas} ready`} /> : null}
      <span className={styles.sub}>{pool.updateStrategy === "Recreate" ? "changes replace waiting sandboxes" : "changes apply as sandboxes are handed out"}</span>
    </div>
  );
}
