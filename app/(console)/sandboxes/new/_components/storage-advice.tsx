import { AlertIcon, InfoIcon } from "@/app/components/icons.tsx";
import type { Advice } from "./workspace-advice.ts";
import styles from "./create-sandbox-form.module.css";

/** The form's storage warnings, read out when they change. */
export function StorageAdvice({ advice }: { advice: Advice[] }) {
  return (
    <div aria-live="polite">
      {advice.map((one) => (
        <p key={one.text} className={one.tone === "warning" ? styles.warning : styles.info}>
          {one.tone === "warning" ? <AlertIcon /> : <InfoIcon />}
          <span>{one.text}</span>
        </p>
      ))}
    </div>
  );
}
