"use client";

import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { api, send } from "@/app/(console)/_components/api-client.ts";
import { TypedConfirmation } from "@/app/(console)/_components/typed-delete-dialog.tsx";
import { Section } from "@/app/(console)/sandboxes/[id]/_components/section.tsx";
import buttons from "@/app/components/buttons.module.css";
import tableStyles from "@/app/components/data-table.module.css";
import dialog from "@/app/components/dialog.module.css";
import { formatTimestamp } from "@/app/components/format.ts";
import type { CleanUp } from "@/lib/domain/clean-up.ts";
import { cleanUpItems, confirmationPhrase, type CleanUpItem } from "./clean-up-items.ts";
import styles from "./clean-up-view.module.css";

// What storage is left over, to select and delete in one step behind a typed confirmation. Each
// deletion is its own request as the person (so each is authorized and audited on its own), one
// after another, with the outcome of each shown as it comes.

const when = (iso: string | null) => (iso ? formatTimestamp(new Date(iso)) : "—");

function remove(item: CleanUpItem) {
  if (item.kind === "claim") return send(() => api.deleteVolume({ params: { namespace: item.namespace, name: item.name } }));
  if (item.kind === "volume") return send(() => api.deletePersistentVolume({ params: { name: item.name } }));
  return send(() => api.deleteVolumeSnapshot({ params: { namespace: item.namespace, name: item.sourceClaim, snapshot: item.name } }));
}

const describe = (item: CleanUpItem) => (item.kind === "volume" ? `volume ${item.name}` : `${item.kind} ${item.namespace}/${item.name}`);

export function CleanUpView() {
  const queryClient = useQueryClient();
  const { data, error, isPending } = useQuery({ queryKey: ["clean-up"], queryFn: ({ signal }) => api.storageCleanUp({ signal }) });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  if (error) return <p role="alert">What is left over could not be read: {(error as Error).message}</p>;
  if (isPending || !data) return <p>Looking for what is left over…</p>;
  const items = cleanUpItems(data);
  const chosen = items.filter((item) => selected.has(item.key));
  const toggle = (key: string) =>
    setSelected((now) => {
      const next = new Set(now);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const pick = (key: string, label: string) => <input type="checkbox" aria-label={`Select ${label}`} checked={selected.has(key)} onChange={() => toggle(key)} />;
  const done = () => {
    setSelected(new Set());
    void queryClient.invalidateQueries({ queryKey: ["clean-up"] });
    void queryClient.invalidateQueries({ queryKey: ["volumes"] });
  };
  return (
    <>
      <ClaimsSection view={data} pick={pick} />
      <VolumesSection view={data} pick={pick} />
      <SnapshotsSection view={data} pick={pick} />
      <p>
        <BulkDelete items={chosen} onDone={done} />
      </p>
    </>
  );
}

type Pick = (key: string, label: string) => ReactNode;

function Table({ label, head, children }: { label: string; head: string[]; children: ReactNode }) {
  return (
    <div className={tableStyles.frame} role="region" aria-label={label} tabIndex={0}>
      <table className={tableStyles.table}>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Selected</span>
            </th>
            {head.map((title) => (
              <th key={title} scope="col">
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

function ClaimsSection({ view, pick }: { view: CleanUp; pick: Pick }) {
  return (
    <Section title="Claims no live sandbox uses">
      {view.claims.length === 0 ? (
        <p>Every claim you may see is in use by a live sandbox or a pod.</p>
      ) : (
        <Table label="Claims no live sandbox uses" head={["Claim", "Last used by", "Size", "Class", "On delete"]}>
          {view.claims.map((claim) => (
            <tr key={`${claim.namespace}/${claim.name}`}>
              <td>{pick(`claim:${claim.namespace}/${claim.name}`, `claim ${claim.name}`)}</td>
              <th scope="row" className={tableStyles.mono}>
                <Link href={`/volumes/${claim.namespace}/${claim.name}`}>{claim.name}</Link> <span className={styles.muted}>in {claim.namespace}</span>
              </th>
              <td>{claim.lastSandbox ? `${claim.lastSandbox.name}, deleted ${when(claim.lastSandbox.deletedAt)}` : `no sandbox (made ${when(claim.createdAt)})`}</td>
              <td>{claim.size ?? "—"}</td>
              <td>{claim.storageClassName ?? "none"}</td>
              <td>{claim.reclaimPolicy === "Retain" ? "volume kept (Released)" : claim.reclaimPolicy ? "data deleted" : "nothing bound"}</td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

function VolumesSection({ view, pick }: { view: CleanUp; pick: Pick }) {
  return (
    <Section title="Released volumes">
      {view.releasedVolumes === null ? (
        <p>PersistentVolumes belong to the cluster, not to a namespace: listing them takes berth-platform-admin.</p>
      ) : view.releasedVolumes.length === 0 ? (
        <p>No volume is waiting, Released, after its claim.</p>
      ) : (
        <Table label="Released volumes" head={["Volume", "Was the claim", "Capacity", "Class", "Made"]}>
          {view.releasedVolumes.map((volume) => (
            <tr key={volume.name}>
              <td>{pick(`volume:${volume.name}`, `volume ${volume.name}`)}</td>
              <th scope="row" className={tableStyles.mono}>{volume.name}</th>
              <td>{volume.formerClaim ? `${volume.formerClaim.namespace}/${volume.formerClaim.name}` : "—"}</td>
              <td>{volume.capacity ?? "—"}</td>
              <td>{volume.storageClassName ?? "none"}</td>
              <td>{when(volume.createdAt)}</td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

function SnapshotsSection({ view, pick }: { view: CleanUp; pick: Pick }) {
  return (
    <Section title="Snapshots of deleted claims">
      {view.snapshots.length === 0 ? (
        <p>Every snapshot you may see is of a claim that is still there.</p>
      ) : (
        <Table label="Snapshots of deleted claims" head={["Snapshot", "Was of", "Restores into", "Taken"]}>
          {view.snapshots.map((snapshot) => (
            <tr key={`${snapshot.namespace}/${snapshot.name}`}>
              <td>{pick(`snapshot:${snapshot.namespace}/${snapshot.name}`, `snapshot ${snapshot.name}`)}</td>
              <th scope="row" className={tableStyles.mono}>
                {snapshot.name} <span className={styles.muted}>in {snapshot.namespace}</span>
              </th>
              <td>{snapshot.sourceClaim ?? "—"}</td>
              <td>{snapshot.restoreSize ?? "—"}</td>
              <td>{when(snapshot.createdAt)}</td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

type Outcome = { item: CleanUpItem; ok: true } | { item: CleanUpItem; ok: false; message: string };

/** One confirmation for every selected thing, then each deleted in turn, its outcome shown as it comes. */
function BulkDelete({ items, onDone }: { items: CleanUpItem[]; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [outcomes, setOutcomes] = useState<Outcome[] | null>(null);
  const [running, setRunning] = useState(false);
  const phrase = confirmationPhrase(items.length);

  const onOpenChange = (next: boolean) => {
    if (running) return;
    setOpen(next);
    if (!next) {
      if (outcomes) onDone();
      setTyped("");
      setOutcomes(null);
    }
  };

  const run = async () => {
    setRunning(true);
    const done: Outcome[] = [];
    setOutcomes([]);
    for (const item of items) {
      const result = await remove(item);
      done.push(result.ok ? { item, ok: true } : { item, ok: false, message: result.message });
      setOutcomes([...done]);
    }
    setRunning(false);
  };

  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Trigger asChild>
        <button type="button" className={buttons.danger} disabled={items.length === 0}>
          Delete selected ({items.length})
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialog.overlay} />
        <AlertDialog.Content className={dialog.content}>
          <AlertDialog.Title className={dialog.title}>Delete {items.length === 1 ? "1 thing" : `${items.length} things`}?</AlertDialog.Title>
          <AlertDialog.Description className={dialog.text}>This cannot be undone. Each is deleted as you, one after another:</AlertDialog.Description>
          <ul className={dialog.text} aria-label="To delete">
            {items.map((item) => {
              const outcome = outcomes?.find((one) => one.item.key === item.key);
              return (
                <li key={item.key}>
                  {describe(item)}: {item.lost}
                  {outcome ? <strong>{outcome.ok ? " — deleted" : ` — not deleted: ${outcome.message}`}</strong> : null}
                </li>
              );
            })}
          </ul>
          {outcomes === null ? (
            <TypedConfirmation phrase={phrase} typed={typed} onType={setTyped} onConfirm={() => void run()} confirmLabel={`Delete ${items.length}`} busy={running} problem={null} />
          ) : (
            <>
              <p role="status" className={dialog.text}>
                {running ? `Deleting ${outcomes.length + 1} of ${items.length}…` : `${outcomes.filter((one) => one.ok).length} of ${items.length} deleted.`}
              </p>
              <div className={dialog.actions}>
                <AlertDialog.Cancel asChild>
                  <button type="button" className={buttons.secondary} disabled={running}>
                    Close
                  </button>
                </AlertDialog.Cancel>
              </div>
            </>
          )}
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
