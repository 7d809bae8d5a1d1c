"use client";

import { MAX_WARM_POOL_REPLICAS } from "@/lib/domain/sandbox-template.ts";
import { SelectField, TextField } from "@/app/(console)/sandboxes/new/_components/form-fields.tsx";
import styles from "@/app/(console)/sandboxes/new/_components/create-sandbox-form.module.css";

// The template's own fields: what it is for, and how many of its sandboxes wait ready.

export function WarmPoolSection() {
  return (
    <section aria-labelledby="warm-pool-heading" className={styles.section}>
      <h2 id="warm-pool-heading" className={styles.sectionTitle}>
        Purpose and warm pool
      </h2>
      <TextField name="template.description" label="Description" placeholder="Python agents with a 5Gi workspace" hint="What the template is for, as developers see it when they pick one. At most 200 characters." />
      <div className={styles.row}>
        <TextField
          name="template.warmPoolReplicas"
          label="Warm pool size"
          inputMode="numeric"
          placeholder="none"
          hint={`Sandboxes kept started and ready, 0 to ${MAX_WARM_POOL_REPLICAS}: a developer gets one in a second. Each holds a pod (and a workspace claim with a pvc workspace) while it waits. Empty: no pool, every sandbox a cold start.`}
        />
        <SelectField
          name="template.updateStrategy"
          label="When the template changes"
          options={[
            { value: "OnReplenish", label: "Keep waiting sandboxes; new ones follow the change" },
            { value: "Recreate", label: "Replace waiting sandboxes at once" },
          ]}
        />
      </div>
    </section>
  );
}
