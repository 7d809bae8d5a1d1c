"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import * as Dialog from "@radix-ui/react-dialog";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { api, send } from "@/app/(console)/_components/api-client.ts";
import type { Volume } from "@/lib/domain/volume.ts";
import { expansionProblem, volumeExpansionSchema, type VolumeExpansion } from "@/lib/domain/volume-actions.ts";
import buttons from "@/app/components/buttons.module.css";
import dialog from "@/app/components/dialog.module.css";
import { DialogActions } from "@/app/(console)/_components/dialog-actions.tsx";

/** Ask for a larger claim; offered only where the claim's StorageClass allows expansion. */
export function ExpandVolumeDialog({ volume, onChanged }: { volume: Volume; onChanged: () => void }) {
  const ids = useId();
  const [open, setOpen] = useState(false);
  const current = volume.requested ?? volume.capacity;
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<VolumeExpansion>({ resolver: zodResolver(volumeExpansionSchema), defaultValues: { size: "" } });

  const onSubmit = handleSubmit(async ({ size }) => {
    const smaller = expansionProblem(current, size);
    if (smaller) {
      setError("size", { type: "validate", message: smaller }, { shouldFocus: true });
      return;
    }
    const result = await send(() => api.expandVolume({ params: { namespace: volume.namespace, name: volume.name }, body: { size } }));
    if (!result.ok) {
      const onSize = result.fields.find((one) => one.field === "size");
      setError(onSize ? "size" : "root", { type: "server", message: onSize?.message ?? result.message }, { shouldFocus: Boolean(onSize) });
      return;
    }
    setOpen(false);
    onChanged();
    reset();
  });

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
    >
      <Dialog.Trigger asChild>
        <button type="button" className={`${buttons.secondary} ${buttons.compact}`}>
          Expand<span className="visually-hidden"> {volume.name}</span>
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content}>
          <Dialog.Title className={dialog.title}>Expand claim {volume.name}</Dialog.Title>
          <Dialog.Description className={dialog.text}>
            It asks for {current ?? "an unknown size"} now, of StorageClass <code>{volume.storageClassName}</code>, which allows
            expansion. A claim can grow but never shrink; the new size shows once the volume has been resized.
          </Dialog.Description>
          <form onSubmit={(event) => void onSubmit(event)} noValidate>
            <label htmlFor={`${ids}-size`} className={dialog.label}>
              New size
            </label>
            <input
              id={`${ids}-size`}
              className={dialog.input}
              placeholder="5Gi"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={errors.size ? true : undefined}
              aria-describedby={errors.size ? `${ids}-size-error` : undefined}
              {...register("size")}
            />
            {errors.size?.message ? (
              <p id={`${ids}-size-error`} className={dialog.error}>
                {errors.size.message}
              </p>
            ) : null}
            {errors.root?.message ? (
              <p role="alert" className={dialog.error}>
                {errors.root.message}
              </p>
            ) : null}
            <DialogActions>
              <button type="submit" className={buttons.primary} disabled={isSubmitting}>
                {isSubmitting ? "Expanding…" : "Expand claim"}
              </button>
            </DialogActions>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
