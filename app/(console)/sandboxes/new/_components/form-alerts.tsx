"use client";

import type { FieldErrors, FieldValues } from "react-hook-form";
import styles from "./create-sandbox-form.module.css";

// Above a form's buttons, read out when it changes: that fields need attention, what no field
// shows, and the server's refusal in its own words.

export interface Refusal {
  title: string;
  detail: string;
  /** Messages no field shows. */
  general: string[];
}

export function FormAlerts<Values extends FieldValues>({ errors, submitted, refusal }: { errors: FieldErrors<Values>; submitted: boolean; refusal: Refusal | null }) {
  const fieldErrors = Object.keys(errors).filter((key) => key !== "root").length;
  const schemaProblem = errors.root?.["schema"]?.message;
  return (
    <div role="alert" className={styles.alerts}>
      {submitted && fieldErrors > 0 && !refusal ? <p className={styles.errorSummary}>Some fields need attention: their messages are beside them.</p> : null}
      {schemaProblem ? <p className={styles.errorSummary}>{schemaProblem}</p> : null}
      {refusal ? (
        <div className={styles.errorSummary}>
          <p className={styles.refusalTitle}>{refusal.title}</p>
          <p>{refusal.detail}</p>
          {refusal.general.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}
