"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { api, send } from "@/app/(console)/_components/api-client.ts";
import { permissionIn, useViewer } from "@/app/(console)/_components/viewer-context.tsx";
import { Section } from "@/app/(console)/sandboxes/[id]/_components/section.tsx";
import buttons from "@/app/components/buttons.module.css";
import dialog from "@/app/components/dialog.module.css";
import { formatBytes } from "@/app/components/format.ts";
import meter from "@/app/components/usage-meter.module.css";
import { defaultMoveTarget, isMoveUnderWay, moveFraction, type VolumeMove } from "@/lib/domain/volume-move.ts";
import { DialogActions } from "@/app/(console)/_components/dialog-actions.tsx";

// Moving a node-pinned workspace to a portable class, so that a sandbox on it survives the loss
// of its node: the copy's progress while it runs (polled; the figures are the kubelets'), how it
// ended, and — once done — the new claim with a way to start a sandbox on it. The old claim is
// left as it is: deleting it is the person's own later step.

const POLL_MS = 2_000;

function progressText(move: VolumeMove): string {
  const copied = move.copiedBytes === null ? null : formatBytes(move.copiedBytes);
  const total = move.totalBytes === null ? null : formatBytes(move.totalBytes);
  switch (move.phase) {
    case "Starting":
      return `Starting the copy${move.message ? `: ${move.message}` : "…"}`;
    case "Copying":
      return copied && total ? `Copying: ${copied} of ${total}` : "Copying (the kubelet has not measured it yet)";
    case "Succeeded":
      return `Copied${total ? ` ${total}` : ""}${move.finishedAt ? ` at ${new Date(move.finishedAt).toLocaleString()}` : ""}`;
    case "Failed":
      return `Failed: ${move.message ?? "the copy stopped"}`;
  }
}

export function ClaimMoves({ namespace, claim, pinnedToNode, portableClasses }: { namespace: string; claim: string; pinnedToNode: string | null; portableClasses: string[] }) {
  const you = useViewer();
  const key = ["moves", namespace, claim];
  const { data, error, isPending } = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => (await api.listVolumeMoves({ params: { namespace, name: claim }, signal })).items,
    refetchInterval: (query) => (query.state.data?.some(isMoveUnderWay) ? POLL_MS : false),
  });
  const moves = data ?? [];
  const underWay = moves.some(isMoveUnderWay);
  const mayMove = permissionIn(you, "createClaims", namespace).allowed;
  return (
    <Section title="Move">
      {pinnedToNode === null ? (
        <p>Its volume follows its pod to another node: a sandbox on it survives the loss of a node.</p>
      ) : portableClasses.length === 0 ? (
        <p>Its volume lives on node {pinnedToNode} alone, and this cluster has no portable class to move it to: a sandbox on it waits for that node to come back.</p>
      ) : (
        <>
          <p>Its volume lives on node {pinnedToNode} alone: if that node is lost, a sandbox on it cannot be replaced elsewhere. A copy in a portable class can.</p>
          {mayMove && !underWay ? <MoveDialog namespace={namespace} claim={claim} portableClasses={portableClasses} /> : null}
        </>
      )}
      {error ? <p role="alert">The moves could not be read: {(error as Error).message}</p> : null}
      {isPending || moves.length === 0 ? null : (
        <ul aria-label={`Moves of ${claim}`}>
          {moves.map((move) => (
            <MoveRow key={`${move.target}-${move.startedAt}`} move={move} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function MoveRow({ move }: { move: VolumeMove }) {
  const fraction = moveFraction(move);
  return (
    <li>
      Into <Link href={`/volumes/${move.namespace}/${move.target}`}>{move.target}</Link> ({move.storageClassName}){move.startedBy ? `, by ${move.startedBy}` : ""}:{" "}
      <span role="status">{progressText(move)}</span>
      {isMoveUnderWay(move) ? (
        <span className={meter.usage}>
          <progress className={meter.meter} max={1} {...(fraction === null ? {} : { value: fraction })} aria-label={`Copy into ${move.target}`} />
        </span>
      ) : null}
      {move.phase === "Succeeded" ? (
        <>
          {" "}
          <Link className={`${buttons.secondary} ${buttons.compact}`} href={`/sandboxes/new?${new URLSearchParams({ claim: `${move.namespace}/${move.target}` })}`}>
            Start a sandbox on {move.target}
          </Link>{" "}
          {move.source} is kept as it was: delete it once you no longer need it.
        </>
      ) : null}
    </li>
  );
}

/** The portable class and the new claim's name; the copy starts once asked. */
function MoveDialog({ namespace, claim, portableClasses }: { namespace: string; claim: string; portableClasses: string[] }) {
  const ids = useId();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [storageClassName, setStorageClassName] = useState(portableClasses[0] ?? "");
  const [name, setName] = useState(defaultMoveTarget(claim));
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ field: string | null; message: string } | null>(null);

  async function move() {
    setBusy(true);
    setProblem(null);
    const result = await send(() => api.moveVolume({ params: { namespace, name: claim }, body: { storageClassName, name: name.trim() } }));
    setBusy(false);
    if (!result.ok) {
      const field = result.fields.find((one) => one.field === "name" || one.field === "storageClassName");
      setProblem(field ? { field: field.field, message: field.message } : { field: null, message: result.message });
      return;
    }
    setOpen(false);
    void queryClient.invalidateQueries({ queryKey: ["moves", namespace, claim] });
    void queryClient.invalidateQueries({ queryKey: ["volumes"] });
  }

  const errorOf = (field: string) =>
    problem?.field === field ? (
      <p id={`${ids}-${field}-error`} role="alert" className={dialog.error}>
        {problem.message}
      </p>
    ) : null;
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setProblem(null);
      }}
    >
      <Dialog.Trigger asChild>
        <button type="button" className={buttons.primary}>
          Move to a portable class
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content}>
          <Dialog.Title className={dialog.title}>Move {claim} to a portable class</Dialog.Title>
          <Dialog.Description className={dialog.text}>
            A helper pod, started as you, copies every file of {claim} into a new claim of the class you choose. {claim} is kept as it is until you delete it. Nothing may use {claim} while it is copied: stop or delete its sandbox first (a retained claim stays).
          </Dialog.Description>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void move();
            }}
            noValidate
          >
            <label htmlFor={`${ids}-class`} className={dialog.label}>
              Portable class
            </label>
            <select id={`${ids}-class`} className={dialog.input} value={storageClassName} onChange={(event) => setStorageClassName(event.target.value)} aria-invalid={problem?.field === "storageClassName" ? true : undefined} aria-describedby={problem?.field === "storageClassName" ? `${ids}-storageClassName-error` : undefined}>
              {portableClasses.map((one) => (
                <option key={one} value={one}>
                  {one}
                </option>
              ))}
            </select>
            {errorOf("storageClassName")}
            <label htmlFor={`${ids}-name`} className={dialog.label}>
              New claim
            </label>
            <input id={`${ids}-name`} className={dialog.input} value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" spellCheck={false} aria-invalid={problem?.field === "name" ? true : undefined} aria-describedby={problem?.field === "name" ? `${ids}-name-error` : undefined} />
            {errorOf("name")}
            {problem?.field === null ? (
              <p role="alert" className={dialog.error}>
                {problem.message}
              </p>
            ) : null}
            <DialogActions>
              <button type="submit" className={buttons.primary} disabled={busy}>
                {busy ? "Starting the copy…" : "Copy into the new claim"}
              </button>
            </DialogActions>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
