"use client";

import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import { claimsByFate } from "./claim-fate.ts";
import { ApiProblem } from "@/app/(console)/_components/api-client.ts";
import { sandboxCommands, sandboxQueries } from "./sandbox-api.ts";
import type { SandboxClaim } from "./sandbox-claims.ts";
import styles from "./sandbox-actions.module.css";
import buttons from "@/app/components/buttons.module.css";
import dialog from "@/app/components/dialog.module.css";

function ClaimList({ claims, label, empty }: { claims: SandboxClaim[]; label: string; empty: string }) {
  if (claims.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <ul className={styles.claims} aria-label={label}>
      {claims.map((claim) => (
        <li key={claim.name}>
          <code>{claim.name}</code> <span className={styles.muted}>({claim.ownership})</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Delete, after saying what it does to each claim: `template` and `delete` claims go with the
 * sandbox, `retain` and `existing` ones stay. The dialog stays open while the delete runs and
 * shows the server's words if it fails; once done, the Sandboxes list is where the user lands.
 */
export function DeleteDialog({ record, claims, allowed }: { record: SandboxRecord; claims: SandboxClaim[]; allowed: { enabled: true } | { enabled: false; why: string } }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const fates = claimsByFate(claims);
  const remove = useMutation({
    mutationFn: () => sandboxCommands.remove(record.id),
    onSuccess: ({ record: deleted }) => {
      queryClient.setQueryData(sandboxQueries.record(record.id).queryKey, deleted);
      router.push("/sandboxes");
    },
  });
  const failure = remove.error ? ApiProblem.from(remove.error, "Delete failed") : null;

  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !remove.isPending && setOpen(next)}>
      <AlertDialog.Trigger asChild>
        <button type="button" className={buttons.dangerOutline} disabled={!allowed.enabled} title={allowed.enabled ? undefined : allowed.why} onClick={() => remove.reset()}>
          Delete
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialog.overlay} />
        <AlertDialog.Content className={dialog.content}>
          <AlertDialog.Title className={dialog.title}>Delete sandbox {record.name}?</AlertDialog.Title>
          <AlertDialog.Description className={dialog.text}>
            Its pod stops and its Sandbox resource is removed from {record.namespace}. Berth keeps its record and timeline.
          </AlertDialog.Description>
          <h3 className={styles.dialogHeading}>Removed with it</h3>
          <ClaimList claims={fates.removed} label="Claims removed" empty="No claims are removed." />
          <h3 className={styles.dialogHeading}>Kept</h3>
          <ClaimList claims={fates.kept} label="Claims kept" empty="No claims are kept." />
          {failure ? (
            <div className={styles.failed} role="alert">
              <p className={styles.failedTitle}>{failure.title}</p>
              <p>{failure.detail}</p>
            </div>
          ) : null}
          <div className={dialog.actions}>
            <AlertDialog.Cancel asChild>
              <button type="button" className={buttons.secondary} disabled={remove.isPending}>
                Cancel
              </button>
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that would close the dialog before the delete has answered. */}
            <button type="button" className={buttons.danger} aria-busy={remove.isPending} disabled={remove.isPending} onClick={() => remove.mutate()}>
              {remove.isPending ? "Deleting…" : `Delete ${record.name}`}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
