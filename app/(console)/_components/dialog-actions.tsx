"use client";

import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import buttons from "@/app/components/buttons.module.css";
import dialog from "@/app/components/dialog.module.css";

/** A dialog's last row: the way out (it closes the dialog, changing nothing), then the dialog's own action. */
export function DialogActions({ children, cancelLabel = "Cancel" }: { children: ReactNode; cancelLabel?: string }) {
  return (
    <div className={dialog.actions}>
      <Dialog.Close asChild>
        <button type="button" className={buttons.secondary}>
          {cancelLabel}
        </button>
      </Dialog.Close>
      {children}
    </div>
  );
}
