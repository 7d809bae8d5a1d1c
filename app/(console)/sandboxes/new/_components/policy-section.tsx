"use client";

import { CHECKPOINT_FAILURE_POLICIES } from "@/lib/domain/disruption-policy.ts";
import type { GatewayLimits } from "@/lib/domain/gateway-limits.ts";
import { CheckboxField, SelectField, TextField } from "./form-fields.tsx";
import styles from "./create-sandbox-form.module.css";

// What happens when Kubernetes moves the sandbox: protection from voluntary evictions, the
// checkpoint before a planned one, and recovery after an unplanned one.

const FAILURE_POLICY_LABELS: Record<(typeof CHECKPOINT_FAILURE_POLICIES)[number], string> = {
  Block: "Block: keep it on the node, protected, until someone checkpoints it",
  Proceed: "Proceed: evict it anyway",
  ProceedAfterTimeout: "Proceed after timeout: wait out the checkpoint grace, then evict it",
};

export function PolicySection({ limits }: { limits: GatewayLimits }) {
  return (
    <section aria-labelledby="policy-heading" className={styles.section}>
      <h2 id="policy-heading" className={styles.sectionTitle}>
        Disruption policy
      </h2>
      <CheckboxField
        name="disruptionPolicy.evictionProtection"
        label="Protect from evictions"
        hint="A PodDisruptionBudget (minAvailable 1) makes drains wait; Berth's maintenance checkpoints the sandbox first. It cannot stop a node loss or a deleted pod."
      />
      <TextField
        name="disruptionPolicy.checkpointHook"
        label="Checkpoint hook"
        placeholder="git -C /sandbox stash"
        hint="A shell command run in the agent container (sh -c) before a planned disruption. Empty: Berth only flushes and marks the workspace."
        monospace
      />
      <div className={styles.row}>
        <TextField name="disruptionPolicy.checkpointGracePeriodSeconds" label="Checkpoint grace (seconds)" inputMode="numeric" hint="Empty: no deadline of its own. Must be shorter than the termination grace." />
        <TextField
          name="disruptionPolicy.terminationGracePeriodSeconds"
          label="Termination grace (seconds)"
          inputMode="numeric"
          hint={`At most ${limits.maxGracePeriodSeconds} on this gateway: a drain waits this long for the pod.`}
        />
      </div>
      <SelectField name="disruptionPolicy.checkpointFailurePolicy" label="When the checkpoint fails" options={CHECKPOINT_FAILURE_POLICIES.map((value) => ({ value, label: FAILURE_POLICY_LABELS[value] }))} />
      <CheckboxField name="disruptionPolicy.autoRecoverFailedPods" label="Recover pods the kubelet evicted" hint="The controller does not replace a pod that ended Failed; Berth does." />
      <CheckboxField name="disruptionPolicy.snapshotOnCheckpoint" label="Snapshot the workspace at each checkpoint" hint="A CSI VolumeSnapshot, where the storage class supports snapshots." />
    </section>
  );
}
