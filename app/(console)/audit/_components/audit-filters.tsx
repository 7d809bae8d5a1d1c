import { AUDIT_DECISIONS } from "@/lib/domain/audit.ts";
import type { SpecProblem } from "@/lib/domain/problems.ts";
import buttons from "@/app/components/buttons.module.css";
import styles from "./audit.module.css";

export const FILTER_NAMES = ["actor", "action", "targetKind", "outcome", "decision", "since"] as const;
export type AuditFilterValues = Partial<Record<(typeof FILTER_NAMES)[number], string>>;

const OUTCOMES = ["Succeeded", "Failed"] as const;

/** A plain GET form: the filters live in the address, so a filtered view is a link to share. */
export function AuditFilters({ values, problems }: { values: AuditFilterValues; problems: SpecProblem[] }) {
  const problemOf = (name: string) => problems.find((problem) => problem.path[0] === name)?.message;
  const field = (name: (typeof FILTER_NAMES)[number], label: string, hint: string) => {
    const problem = problemOf(name);
    return (
      <label className={styles.field}>
        <span>{label}</span>
        <input name={name} defaultValue={values[name] ?? ""} placeholder={hint} aria-invalid={problem ? true : undefined} aria-describedby={problem ? `${name}-problem` : undefined} />
        {problem ? (
          <span id={`${name}-problem`} className={styles.problem}>
            {problem}
          </span>
        ) : null}
      </label>
    );
  };
  const choice = (name: "outcome" | "decision", label: string, options: readonly string[]) => (
    <label className={styles.field}>
      <span>{label}</span>
      <select name={name} defaultValue={values[name] ?? ""}>
        <option value="">any</option>
        {options.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
    </label>
  );
  return (
    <form method="get" action="/audit" className={styles.filters} aria-label="Filter the audit log">
      {field("actor", "Who", "alex@berth.example")}
      {field("action", "Action", "sandbox.create")}
      {field("targetKind", "Kind", "Sandbox")}
      {choice("decision", "Decision", AUDIT_DECISIONS)}
      {choice("outcome", "Outcome", OUTCOMES)}
      {field("since", "Since", "2026-12-01T00:00:00Z")}
      <div className={styles.actions}>
        <button type="submit" className={buttons.primary}>
          Filter
        </button>
        <a href="/audit" className={buttons.secondary}>
          Clear
        </a>
      </div>
    </form>
  );
}
