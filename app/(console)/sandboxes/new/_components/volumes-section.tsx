"use client";

import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import type { GatewayLimits } from "@/lib/domain/gateway-limits.ts";
import { newExtraVolume, type CreateFormValues } from "./create-form-values.ts";
import { AccessModesField, CheckboxField, RadioChoice, TextField } from "./form-fields.tsx";
import buttons from "@/app/components/buttons.module.css";
import styles from "./create-sandbox-form.module.css";

// Extra volumes in OpenSandbox's shape: a claim mounted somewhere besides the workspace, created
// if missing and kept unless asked otherwise.

export function VolumesSection({ limits }: { limits: GatewayLimits }) {
  const { control } = useFormContext<CreateFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: "volumes" });
  return (
    <section aria-labelledby="volumes-heading" className={styles.section}>
      <h2 id="volumes-heading" className={styles.sectionTitle}>
        Extra volumes
      </h2>
      <p className={styles.hint}>Claims mounted besides the workspace: shared datasets, caches, results. Berth creates a missing claim and keeps it after the sandbox unless told to delete it.</p>
      {fields.map((field, index) => (
        <ExtraVolume key={field.id} index={index} maxClaimSize={limits.maxClaimSize} onRemove={() => remove(index)} />
      ))}
      <button type="button" className={buttons.secondary} onClick={() => append(newExtraVolume(fields.length))}>
        Add volume
      </button>
    </section>
  );
}

function ExtraVolume({ index, maxClaimSize, onRemove }: { index: number; maxClaimSize: string; onRemove: () => void }) {
  const { control } = useFormContext<CreateFormValues>();
  const [creates, classChoice] = useWatch({ control, name: [`volumes.${index}.pvc.createIfNotExists`, `volumes.${index}.pvc.storageClass.choice`] });
  return (
    <fieldset className={styles.volume}>
      <legend className={styles.label}>Volume {index + 1}</legend>
      <div className={styles.row}>
        <TextField name={`volumes.${index}.name`} label="Volume name" monospace />
        <TextField name={`volumes.${index}.pvc.claimName`} label="Claim name" monospace />
      </div>
      <div className={styles.row}>
        <TextField name={`volumes.${index}.mountPath`} label="Mount path" monospace />
        <TextField name={`volumes.${index}.subPath`} label="Sub-path" hint="Empty: the whole volume." monospace />
      </div>
      <CheckboxField name={`volumes.${index}.readOnly`} label="Read-only" />
      <CheckboxField name={`volumes.${index}.pvc.createIfNotExists`} label="Create the claim if it is missing" />
      <CheckboxField name={`volumes.${index}.pvc.deleteOnSandboxTermination`} label="Delete the claim with the sandbox" hint="Otherwise it is kept for later sandboxes." />
      {creates ? (
        <>
          <RadioChoice
            name={`volumes.${index}.pvc.storageClass.choice`}
            legend="Storage class"
            choices={[
              { value: "cluster-default", label: "The workspace default" },
              { value: "none", label: "No class" },
              { value: "named", label: "Named" },
            ]}
          />
          {classChoice === "named" ? <TextField name={`volumes.${index}.pvc.storageClass.name`} label="Class name" monospace /> : null}
          <div className={styles.row}>
            <TextField name={`volumes.${index}.pvc.storage`} label="Size" placeholder="the default workspace size" hint={`At most ${maxClaimSize} on this gateway.`} />
            <AccessModesField name={`volumes.${index}.pvc.accessModes`} legend="Access modes" />
          </div>
        </>
      ) : null}
      <button type="button" className={buttons.secondary} onClick={onRemove}>
        Remove volume {index + 1}
      </button>
    </fieldset>
  );
}
