"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { api, send } from "@/app/(console)/_components/api-client.ts";
import { TypedDeleteDialog } from "@/app/(console)/_components/typed-delete-dialog.tsx";
import { permissionIn, useViewer } from "@/app/(console)/_components/viewer-context.tsx";
import { Section } from "@/app/(console)/sandboxes/[id]/_components/section.tsx";
import buttons from "@/app/components/buttons.module.css";
import tableStyles from "@/app/components/data-table.module.css";
import dialog from "@/app/components/dialog.module.css";
import type { VolumeSnapshot } from "@/lib/domain/volume-snapshot.ts";
import { DialogActions } from "@/app/(console)/_components/dialog-actions.tsx";

// A claim's snapshots, kept current while one is being cut or deleted: take one (where the
// class's driver takes them; elsewhere the reason instead of the button), restore one into a new
// claim (and, in the same step, start a sandbox on it), delete one behind a typed confirmation.
// Each is done as the person, who may or may not.

const POLL_MS = 2_000;

function stateOf(snapshot: VolumeSnapshot): string {
  if (snapshot.deleting) return "Being deleted";
  if (snapshot.readyToUse) return "Ready";
  return snapshot.error ? `Failed: ${snapshot.error}` : "Being cut";
}

export function ClaimSnapshots({ namespace, claim, snapshotsSupported, storageClassName }: { namespace: string; claim: string; snapshotsSupported: boolean; storageClassName: string | null }) {
  const you = useViewer();
  const queryClient = useQueryClient();
  const key = ["snapshots", namespace, claim];
  const { data, error, isPending } = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => (await api.listVolumeSnapshots({ params: { namespace, name: claim }, signal })).items,
    refetchInterval: (query) => (query.state.data?.some((one) => !one.readyToUse || one.deleting) ? POLL_MS : false),
  });
  const changed = () => void queryClient.invalidateQueries({ queryKey: key });
  const [taking, setTaking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const may = (capability: "takeSnapshots" | "deleteSnapshots" | "createClaims") => permissionIn(you, capability, namespace).allowed;

  async function take() {
    setTaking(true);
    setProblem(null);
    const result = await send(() => api.takeVolumeSnapshot({ params: { namespace, name: claim }, body: {} }));
    setTaking(false);
    if (!result.ok) setProblem(result.message);
    changed();
  }

  const snapshots = data ?? [];
  return (
    <Section title="Snapshots">
      {snapshotsSupported ? (
        may("takeSnapshots") ? (
          <p>
            <button type="button" className={buttons.primary} disabled={taking} onClick={() => void take()}>
              {taking ? "Taking…" : "Take snapshot"}
            </button>
          </p>
        ) : null
      ) : (
        <p>{storageClassName ? `Class ${storageClassName}'s driver takes no snapshots` : "A claim without a class has no snapshot driver"} (the cluster has no VolumeSnapshotClass for it): copy its data another way, or move it to a class that has snapshots.</p>
      )}
      {problem ? <p role="alert">{problem}</p> : null}
      {error ? <p role="alert">The snapshots could not be read: {(error as Error).message}</p> : null}
      {isPending ? <p>Loading the snapshots…</p> : snapshots.length === 0 ? <p>No snapshots of this claim yet.</p> : (
        <div className={tableStyles.frame} role="region" aria-label={`Snapshots of ${claim}`} tabIndex={0}>
          <table className={tableStyles.table}>
            <thead>
              <tr>
                <th scope="col">Snapshot</th>
                <th scope="col">State</th>
                <th scope="col" className={tableStyles.numeric}>Restores into</th>
                <th scope="col">Taken</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {snapshots.map((snapshot) => (
                <tr key={snapshot.name} id={`snapshot-${snapshot.name}`}>
                  <th scope="row" className={tableStyles.mono}>{snapshot.name}</th>
                  <td>{stateOf(snapshot)}</td>
                  <td className={tableStyles.numeric}>{snapshot.restoreSize ?? "—"}</td>
                  <td>{snapshot.createdAt ? new Date(snapshot.createdAt).toLocaleString() : "—"}</td>
                  <td>
                    {snapshot.readyToUse && !snapshot.deleting && may("createClaims") ? <RestoreDialog namespace={namespace} claim={claim} snapshot={snapshot} mayStartSandbox={permissionIn(you, "createSandboxes", namespace).allowed} /> : null}
                    {!snapshot.deleting && may("deleteSnapshots") ? (
                      <TypedDeleteDialog
                        name={snapshot.name}
                        title={`Delete snapshot ${snapshot.name}?`}
                        whatIsLost={`The saved copy of claim ${claim} it holds goes with it; the claim itself is not touched. This cannot be undone.`}
                        confirmLabel="Delete snapshot"
                        remove={() => send(() => api.deleteVolumeSnapshot({ params: { namespace, name: claim, snapshot: snapshot.name } }))}
                        onDeleted={changed}
                      />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

/** A sandbox name from the claim's: a DNS label of at most 63 characters. */
const sandboxNameFrom = (claim: string) => `${claim.replace(/^workspace-/, "").replace(/[^a-z0-9-]/g, "-").slice(0, 54).replace(/-+$/, "")}-restored`;

/**
 * A new claim from the snapshot, named here; once made, a link to it — or, when asked, a sandbox
 * started on it in the same step (its pod waits while the driver fills the claim), and its page.
 */
function RestoreDialog({ namespace, claim, snapshot, mayStartSandbox }: { namespace: string; claim: string; snapshot: VolumeSnapshot; mayStartSandbox: boolean }) {
  const ids = useId();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(`${claim}-restored`);
  const [startSandbox, setStartSandbox] = useState(false);
  const [sandboxName, setSandboxName] = useState(sandboxNameFrom(claim));
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ field: "name" | "sandbox" | null; message: string } | null>(null);
  const [made, setMade] = useState<string | null>(null);

  async function restore() {
    setBusy(true);
    setProblem(null);
    const restored = made ?? (await restoreClaim());
    if (restored && startSandbox) await startSandboxOn(restored);
    setBusy(false);
  }

  async function restoreClaim(): Promise<string | null> {
    const result = await send(() => api.restoreVolumeSnapshot({ params: { namespace, name: claim, snapshot: snapshot.name }, body: { name: name.trim() } }));
    if (!result.ok) {
      const field = result.fields.find((one) => one.field === "name");
      setProblem({ field: field ? "name" : null, message: field?.message ?? result.message });
      return null;
    }
    setMade(result.body.name);
    void queryClient.invalidateQueries({ queryKey: ["volumes"] });
    return result.body.name;
  }

  async function startSandboxOn(restored: string) {
    const result = await send(() => api.createSandbox({ body: { name: sandboxName.trim(), namespace, workspace: { backend: "pvc", claim: { ownership: "existing", claimName: restored } } } }));
    if (!result.ok || "dryRun" in result.body) {
      // The claim is made and stays: the person can start a sandbox on it from the form instead.
      setProblem({ field: "sandbox", message: result.ok ? "The sandbox was not started." : (result.fields[0]?.message ?? result.message) });
      return;
    }
    await queryClient.invalidateQueries({ queryKey: ["sandboxes"] });
    router.push(`/sandboxes/${result.body.id}`);
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setProblem(null);
          setMade(null);
        }
      }}
    >
      <Dialog.Trigger asChild>
        <button type="button" className={`${buttons.secondary} ${buttons.compact}`}>
          Restore<span className="visually-hidden"> {snapshot.name}</span>
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content}>
          <Dialog.Title className={dialog.title}>Restore {snapshot.name}</Dialog.Title>
          <Dialog.Description className={dialog.text}>
            A new claim holding what {claim} held when the snapshot was taken, of the same class and at least {snapshot.restoreSize ?? "its"} in size. {claim} itself is not touched.
          </Dialog.Description>
          {made && !busy ? (
            <>
              <p role="status" className={dialog.text}>
                Restored into <Link href={`/volumes/${namespace}/${made}`}>{made}</Link>: the driver fills it now. Berth keeps it for a sandbox to take up as its workspace.
              </p>
              {problem?.field === "sandbox" ? (
                <p role="alert" className={dialog.error}>
                  No sandbox was started on it: {problem.message}
                </p>
              ) : null}
              <div className={dialog.actions}>
                <Link className={buttons.primary} href={`/sandboxes/new?${new URLSearchParams({ claim: `${namespace}/${made}` })}`}>
                  Start a sandbox on it
                </Link>
                <Dialog.Close asChild>
                  <button type="button" className={buttons.secondary}>
                    Close
                  </button>
                </Dialog.Close>
              </div>
            </>
          ) : (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void restore();
              }}
              noValidate
            >
              <label htmlFor={`${ids}-name`} className={dialog.label}>
                New claim
              </label>
              <input id={`${ids}-name`} className={dialog.input} value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" spellCheck={false} aria-invalid={problem?.field === "name" ? true : undefined} aria-describedby={problem?.field === "name" ? `${ids}-error` : undefined} />
              {problem && problem.field !== "sandbox" ? (
                <p id={`${ids}-error`} role="alert" className={dialog.error}>
                  {problem.message}
                </p>
              ) : null}
              {mayStartSandbox ? (
                <>
                  <label className={dialog.label}>
                    <input type="checkbox" checked={startSandbox} onChange={(event) => setStartSandbox(event.target.checked)} /> Also start a sandbox on it
                  </label>
                  {startSandbox ? (
                    <>
                      <label htmlFor={`${ids}-sandbox`} className={dialog.label}>
                        Sandbox name
                      </label>
                      <input id={`${ids}-sandbox`} className={dialog.input} value={sandboxName} onChange={(event) => setSandboxName(event.target.value)} autoComplete="off" spellCheck={false} />
                    </>
                  ) : null}
                </>
              ) : null}
              <DialogActions>
                <button type="submit" className={buttons.primary} disabled={busy}>
                  {busy ? (made ? "Starting the sandbox…" : "Restoring…") : startSandbox ? "Restore and start the sandbox" : "Restore into a new claim"}
                </button>
              </DialogActions>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
