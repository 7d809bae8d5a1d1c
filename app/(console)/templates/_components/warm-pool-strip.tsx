"use client";

import Link from "next/link";
import type { TemplateView } from "@/lib/domain/template-view.ts";
import { useTemplates } from "./templates-query.ts";
import { WarmPoolMeter } from "./warm-pool-meter.tsx";
import styles from "./warm-pool-strip.module.css";

/** The warm pools the person may see, each with its ready/target: on the Sandboxes page, above the sandboxes they become. */
export function WarmPoolStrip({ initialTemplates }: { initialTemplates: TemplateView[] }) {
  const { templates } = useTemplates(initialTemplates);
  const pooled = templates.filter((template) => template.warmPool !== null);
  if (pooled.length === 0) return null;
  return (
    <section aria-labelledby="warm-pools-heading" className={styles.strip}>
      <h2 id="warm-pools-heading" className={styles.heading}>
        Warm pools <Link href="/templates">Templates</Link>
      </h2>
      <ul className={styles.pools}>
        {pooled.map((template) => (
          <li key={`${template.namespace}/${template.name}`} className={styles.pool} aria-label={`Warm pool ${template.namespace}/${template.name}`}>
            <span className={styles.name}>
              {template.name} <span className={styles.namespace}>{template.namespace}</span>
            </span>
            <WarmPoolMeter pool={template.warmPool!} />
          </li>
        ))}
      </ul>
    </section>
  );
}
