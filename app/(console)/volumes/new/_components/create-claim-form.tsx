"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { api } from "@/app/(console)/_components/api-client.ts";
import { DisabledUntilHydrated } from "@/app/(console)/_components/disabled-until-hydrated.tsx";
import { useStorageClasses, useVolumes } from "@/app/(console)/sandboxes/new/_components/cluster-choices.ts";
import { FormAlerts, refusalOn, type Refusal } from "@/app/(console)/sandboxes/new/_components/form-alerts.tsx";
import { AccessModesField, RadioChoice, SelectField, TextField } from "@/app/(console)/sandboxes/new/_components/form-fields.tsx";
import { problemResolver } from "@/app/(console)/sandboxes/new/_components/spec-resolver.ts";
import { StorageAdvice } from "@/app/(console)/sandboxes/new/_components/storage-advice.tsx";
import { effectiveClass, workspaceAdvice } from "@/app/(console)/sandboxes/new/_components/workspace-advice.ts";
import styles from "@/app/(console)/sandboxes/new/_components/create-sandbox-form.module.css";
import buttons from "@/app/components/buttons.module.css";
import type { StorageClassView } from "@/lib/domain/storage-class.ts";
import { checkedClaimRequest, claimFieldOf, fillAdvice, type ClaimFormValues } from "./claim-form-values.ts";

// A claim without YAML: where it goes, what fills it (nothing, a snapshot, another claim), its
// class with the sandbox form's advice, its size and access, and whether Berth keeps it for
// sandboxes. Checked in the browser as the server checks it; a refusal lands on its field and
// keeps everything typed.

const SOURCES = [
  { value: "empty", label: "Empty", description: "A new, empty volume." },
  { value: "VolumeSnapshot", label: "Restore a snapshot", description: "Filled from a VolumeSnapshot of the namespace; the class's CSI driver must be the snapshot's." },
  { value: "PersistentVolumeClaim", label: "Clone a claim", description: "A copy of a bound claim of the namespace, made by its CSI driver in the same class." },
];

const OWNERSHIPS = [
  { value: "retain", label: "Kept by Berth for sandboxes", description: "A sandbox takes it up as its retained workspace (ownership retain, claim name this one), and it outlives that sandbox." },
  { value: "existing", label: "Your own", description: "A sandbox mounts it as an existing claim; Berth never changes or deletes it." },
];

function classLabel(storageClass: StorageClassView): string {
  const traits = [storageClass.isDefault ? "cluster default" : null, storageClass.placement, storageClass.snapshots ? "snapshots" : null].filter(Boolean);
  return `${storageClass.name} (${traits.join(", ")})`;
}

export function CreateClaimForm({ namespaces, initial }: { namespaces: string[]; initial: ClaimFormValues }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useForm<ClaimFormValues>({
    defaultValues: initial,
    mode: "onTouched",
    resolver: problemResolver((values: ClaimFormValues) => {
      const checked = checkedClaimRequest(values);
      return checked.ok ? [] : checked.problems;
    }, claimFieldOf),
  });
  const [namespace, sourceKind, sourceName, storageClass] = useWatch({ control: form.control, name: ["namespace", "source.kind", "source.name", "storageClass"] });
  const classes = useStorageClasses();
  const volumes = useVolumes();
  const choice = { backend: "pvc" as const, ownership: "retain" as const, storageClass, gatewayClass: undefined, classes: classes.data ?? null };
  const clonable = (volumes.data ?? []).filter((volume) => volume.namespace === namespace && volume.phase === "Bound");
  // A clone's class is its source's, unless one is chosen (which must then be the same).
  const cloned = clonable.find((volume) => volume.name === sourceName.trim());
  const target = sourceKind === "PersistentVolumeClaim" && storageClass.choice === "cluster-default"
    ? (cloned ? (classes.data?.find((one) => one.name === cloned.storageClassName) ?? "unknown") : "unknown")
    : effectiveClass(choice);
  const fill = fillAdvice(sourceKind, target);
  const advice = [...(sourceKind === "PersistentVolumeClaim" ? [] : workspaceAdvice(choice)), ...(fill ? [fill] : [])];
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const create = form.handleSubmit(async (values) => {
    const checked = checkedClaimRequest(values);
    if (!checked.ok) return;
    setBusy(true);
    setRefusal(null);
    try {
      await api.createVolume({ body: checked.request });
    } catch (error) {
      setRefusal(refusalOn(form, error, "The claim could not be created", claimFieldOf));
      setBusy(false);
      return;
    }
    await queryClient.invalidateQueries({ queryKey: ["volumes"] });
    router.push("/volumes");
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={create} noValidate className={styles.form} aria-label="Create claim">
        <DisabledUntilHydrated>
          <section aria-labelledby="claim-identity" className={styles.section}>
            <h2 id="claim-identity" className={styles.sectionTitle}>
              Claim
            </h2>
            <div className={styles.row}>
              <SelectField name="namespace" label="Namespace" options={namespaces.map((one) => ({ value: one, label: one }))} hint="The namespaces where Kubernetes lets you create claims." />
              <TextField name="name" label="Name" placeholder="datasets" monospace hint="A DNS name: lower-case letters, digits, '-' and '.'." />
            </div>
            <RadioChoice name="ownership" legend="Kept how" choices={OWNERSHIPS} />
          </section>
          <section aria-labelledby="claim-source" className={styles.section}>
            <h2 id="claim-source" className={styles.sectionTitle}>
              Contents
            </h2>
            <RadioChoice name="source.kind" legend="Start from" choices={SOURCES} />
            {sourceKind === "PersistentVolumeClaim" ? (
              <>
                <TextField name="source.name" label="Claim to clone" list="clonable-claims" monospace hint={clonable.length > 0 ? `Bound claims in ${namespace}: ${clonable.map((one) => one.name).join(", ")}.` : `No bound claim Berth knows in ${namespace}; name one that exists.`} />
                <datalist id="clonable-claims">
                  {clonable.map((volume) => (
                    <option key={volume.name} value={volume.name}>
                      {[volume.capacity, volume.storageClassName].filter(Boolean).join(" · ")}
                    </option>
                  ))}
                </datalist>
              </>
            ) : sourceKind === "VolumeSnapshot" ? (
              <TextField name="source.name" label="Snapshot to restore" monospace hint={`A VolumeSnapshot of ${namespace} that is ready to use.`} />
            ) : null}
          </section>
          <section aria-labelledby="claim-storage" className={styles.section}>
            <h2 id="claim-storage" className={styles.sectionTitle}>
              Storage
            </h2>
            <RadioChoice
              name="storageClass.choice"
              legend="Storage class"
              hint={sourceKind === "PersistentVolumeClaim" ? "A clone is made in its source's class: leave the cluster default to take the source's." : undefined}
              choices={[
                { value: "cluster-default", label: sourceKind === "PersistentVolumeClaim" ? "The source's class" : `Cluster default${classes.data ? `: ${classes.data.find((one) => one.isDefault)?.name ?? "(this cluster has none)"}` : ""}` },
                { value: "none", label: "No class", description: "Only a pre-provisioned volume without a class binds." },
                { value: "named", label: "A class of this cluster" },
              ]}
            />
            {storageClass.choice === "named" ? (
              <SelectField
                name="storageClass.name"
                label="Class"
                options={[{ value: "", label: classes.isPending ? "Loading the cluster's classes…" : "Choose a class" }, ...(classes.data ?? []).map((one) => ({ value: one.name, label: classLabel(one) }))]}
                hint={classes.error ? `The cluster's classes could not be read: ${classes.error.message}` : undefined}
              />
            ) : null}
            <div className={styles.row}>
              <TextField name="size" label="Size" placeholder="10Gi" hint="A Kubernetes quantity, e.g. 10Gi; at least the size of what it starts from." />
              <AccessModesField name="accessModes" legend="Access modes" />
            </div>
            <StorageAdvice advice={advice} />
          </section>
          <FormAlerts errors={form.formState.errors} submitted={form.formState.submitCount > 0} refusal={refusal} />
          <div className={styles.actions}>
            <button type="submit" className={buttons.primary} disabled={busy}>
              {busy ? "Creating…" : "Create claim"}
            </button>
          </div>
        </DisabledUntilHydrated>
      </form>
    </FormProvider>
  );
}
