"use client";

import type { FieldErrors, FieldPath, FieldValues, UseFormReturn } from "react-hook-form";
import { ApiProblem } from "@/app/(console)/_components/api-client.ts";
import type { SpecProblem } from "@/lib/domain/problems.ts";
import { placeProblems, problemsOfAnswer } from "./spec-resolver.ts";
import styles from "./create-sandbox-form.module.css";

// Above a form's buttons, read out when it changes: that fields need attention, what no field
// shows, and the server's refusal in its own words.

export interface Refusal {
  title: string;
  detail: string;
  /** Messages no field shows. */
  general: string[];
}

/**
 * A refused request on the form: each problem on the field `fieldOf` names (the first focused),
 * the rest as the refusal's general messages.
 */
export function refusalOn<Values extends FieldValues>(form: Pick<UseFormReturn<Values>, "setError">, error: unknown, fallbackTitle: string, fieldOf?: (path: SpecProblem["path"]) => string | null): Refusal {
  const problem = ApiProblem.from(error, fallbackTitle);
  const { fields, general } = placeProblems(problemsOfAnswer(problem.fields), fieldOf);
  let first = true;
  for (const [field, message] of fields) {
    form.setError(field as FieldPath<Values>, { type: "server", message }, { shouldFocus: first });
    first = false;
  }
  return { title: problem.title, detail: problem.detail, general };
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
