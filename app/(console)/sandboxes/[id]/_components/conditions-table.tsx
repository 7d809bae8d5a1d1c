import { formatAge, formatTimestamp } from "@/app/components/format.ts";
import tableStyles from "@/app/components/data-table.module.css";
import type { Condition } from "@/lib/domain/sandbox-status.ts";
import styles from "./sandbox-detail.module.css";
import { ScrollRegion } from "./scroll-region.tsx";

/** The derived conditions, Kubernetes style; ages against the page's `now` so server and browser agree. */
export function ConditionsTable({ conditions, now }: { conditions: Condition[]; now: Date }) {
  if (conditions.length === 0) return <p className={styles.muted}>No conditions yet: the reconciler has not looked at this sandbox.</p>;
  return (
    <ScrollRegion label={"Conditions"}>
      <table className={tableStyles.table} aria-label="Conditions">
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Reason</th>
            <th scope="col">Message</th>
            <th scope="col">Last transition</th>
          </tr>
        </thead>
        <tbody>
          {conditions.map((condition) => {
            const at = new Date(condition.lastTransitionTime);
            return (
              <tr key={condition.type}>
                <th scope="row">{condition.type}</th>
                <td>{condition.status}</td>
                <td>{condition.reason ?? "—"}</td>
                <td className={styles.wrap}>{condition.message ?? ""}</td>
                <td>
                  <time dateTime={condition.lastTransitionTime} title={formatTimestamp(at)}>
                    {formatAge(at, now)} ago
                  </time>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
