"use client";

import { useFormContext, useWatch } from "react-hook-form";
import type { GatewayDefaults } from "@/lib/domain/gateway-defaults.ts";
import type { GatewayLimits } from "@/lib/domain/gateway-limits.ts";
import type { StorageClassView } from "@/lib/domain/storage-class.ts";
import { claimsFreeToAttach, useStorageClasses, useVolumes } from "./cluster-choices.ts";
import type { CreateFormValues } from "./create-form-values.ts";
import { AccessModesField, RadioChoice, SelectField, TextField } from "./form-fields.tsx";
import { StorageAdvice } from "./storage-advice.tsx";
import { workspaceAdvice } from "./workspace-advice.ts";
import styles from "./create-sandbox-form.module.css";

// Where the sandbox's work lives: the backend with what survives what, and for a claim its
// ownership, class, size and access.

const SURVIVES = [
  { event: "Container restart", pvc: true, ephemeral: true },
  { event: "Pod deleted, evicted or drained (replacement pod)", pvc: true, ephemeral: false },
  { event: "Node lost", pvc: "when the class is portable", ephemeral: false },
  { event: "Sandbox stopped and started", pvc: true, ephemeral: false },
  { event: "Sandbox deleted", pvc: "with a retained or existing claim", ephemeral: false },
] as const;

const OWNERSHIPS = [
  { value: "template", label: "Sandbox-owned", description: "The agent-sandbox controller creates workspace-<name> from the Sandbox's template and garbage-collects it with the sandbox." },
  { value: "retain", label: "Retained", description: "Berth creates the claim if it is missing and never deletes it: it outlives the sandbox and a later sandbox can start from it." },
  { value: "delete", label: "Deleted with the sandbox", description: "Berth creates the claim, owns it alone, and removes it when the sandbox is deleted." },
  { value: "existing", label: "Existing claim", description: "Bring your own: Berth mounts a claim that already exists and never creates or deletes it." },
];

function classLabel(storageClass: StorageClassView): string {
  const traits = [storageClass.isDefault ? "cluster default" : null, storageClass.placement, storageClass.snapshots ? "snapshots" : null, storageClass.allowVolumeExpansion ? "expandable" : null].filter(Boolean);
  return `${storageClass.name} (${traits.join(", ")})`;
}

function defaultClassLabel(gatewayClass: string | undefined, classes: StorageClassView[] | undefined): string {
  if (gatewayClass === "") return "Gateway default: no class";
  if (gatewayClass !== undefined) return `Gateway default: ${gatewayClass}`;
  const clusterDefault = classes?.find((one) => one.isDefault);
  if (!classes) return "Cluster default";
  return clusterDefault ? `Cluster default: ${clusterDefault.name}` : "Cluster default (this cluster has none)";
}

export function WorkspaceSection({ defaults, limits }: { defaults: GatewayDefaults; limits: GatewayLimits }) {
  const { control } = useFormContext<CreateFormValues>();
  const [backend, ownership, storageClass, namespace] = useWatch({ control, name: ["workspace.backend", "workspace.claim.ownership", "workspace.claim.storageClass", "namespace"] });
  const classes = useStorageClasses();
  const advice = workspaceAdvice({ backend, ownership, storageClass, gatewayClass: defaults.workspaceStorageClass, classes: classes.data ?? null });
  const tag = (value: string) => (value === defaults.workspaceBackend ? " (gateway default)" : "");
  return (
    <section aria-labelledby="workspace-heading" className={styles.section}>
      <h2 id="workspace-heading" className={styles.sectionTitle}>
        Workspace
      </h2>
      <RadioChoice
        name="workspace.backend"
        legend="Backend"
        choices={[
          { value: "pvc", label: `Persistent volume (PVC)${tag("pvc")}`, description: "A PersistentVolumeClaim: the work survives a replacement pod." },
          { value: "ephemeral", label: `Ephemeral (emptyDir)${tag("ephemeral")}`, description: "Scratch space on the node: fresh at every pod start, no claim created." },
        ]}
      />
      <SurvivalTable />
      <TextField name="workspace.mountPath" label="Mount path" placeholder={defaults.workspaceMountPath} hint={`Empty: ${defaults.workspaceMountPath}.`} monospace />
      {backend === "pvc" ? (
        <>
          <RadioChoice name="workspace.claim.ownership" legend="Claim ownership" choices={OWNERSHIPS} />
          {ownership === "existing" ? (
            <ExistingClaimField namespace={namespace.trim() || defaults.sandboxNamespace} />
          ) : ownership !== "template" ? (
            <TextField name="workspace.claim.claimName" label="Claim name" placeholder="workspace-<sandbox name>" hint="Empty: workspace-<sandbox name>." monospace />
          ) : null}
          {ownership !== "existing" ? (
            <>
              <RadioChoice
                name="workspace.claim.storageClass.choice"
                legend="Storage class"
                choices={[
                  { value: "cluster-default", label: defaultClassLabel(defaults.workspaceStorageClass, classes.data) },
                  { value: "none", label: "No class", description: "Only a pre-provisioned volume without a class binds." },
                  { value: "named", label: "A class of this cluster" },
                ]}
              />
              {storageClass.choice === "named" ? (
                <SelectField
                  name="workspace.claim.storageClass.name"
                  label="Class"
                  options={[{ value: "", label: classes.isPending ? "Loading the cluster's classes…" : "Choose a class" }, ...(classes.data ?? []).map((one) => ({ value: one.name, label: classLabel(one) }))]}
                  hint={classes.error ? `The cluster's classes could not be read: ${classes.error.message}` : undefined}
                />
              ) : null}
              <div className={styles.row}>
                <TextField name="workspace.claim.size" label="Size" placeholder={defaults.workspaceDefaultStorageSize} hint={`Empty: ${defaults.workspaceDefaultStorageSize}. At most ${limits.maxClaimSize} on this gateway.`} />
                <AccessModesField name="workspace.claim.accessModes" legend="Access modes" />
              </div>
            </>
          ) : null}
        </>
      ) : null}
      <StorageAdvice advice={advice} />
    </section>
  );
}

function SurvivalTable() {
  const cell = (value: boolean | string) => (value === true ? "kept" : value === false ? "lost" : `kept ${value}`);
  return (
    <table className={styles.survival}>
      <caption className={styles.hint}>What survives what</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">PVC</th>
          <th scope="col">Ephemeral</th>
        </tr>
      </thead>
      <tbody>
        {SURVIVES.map((row) => (
          <tr key={row.event}>
            <th scope="row">{row.event}</th>
            <td>{cell(row.pvc)}</td>
            <td>{cell(row.ephemeral)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ExistingClaimField({ namespace }: { namespace: string }) {
  const volumes = useVolumes();
  const free = claimsFreeToAttach(volumes.data ?? [], namespace);
  const listId = "existing-claims";
  return (
    <>
      <TextField
        name="workspace.claim.claimName"
        label="Existing claim"
        list={listId}
        monospace
        hint={volumes.isPending ? "Loading the claims free to attach…" : free.length > 0 ? `Claims in ${namespace} nothing uses: ${free.map((one) => one.name).join(", ")}.` : `No detached claim in ${namespace}; name one that exists.`}
      />
      <datalist id={listId}>
        {free.map((volume) => (
          <option key={volume.name} value={volume.name}>
            {[volume.sandbox ? `was ${volume.sandbox.name}'s` : null, volume.capacity, volume.storageClassName].filter(Boolean).join(" · ")}
          </option>
        ))}
      </datalist>
    </>
  );
}
