"use client";

import type { ReactNode } from "react";
import { useHydrated } from "./use-hydrated.ts";

/** Wraps a form's controls: disabled in the server's HTML, usable once React runs the form. */
export function DisabledUntilHydrated({ children }: { children: ReactNode }) {
  return (
    <fieldset disabled={!useHydrated()} className="disabled-until-hydrated">
      {children}
    </fieldset>
  );
}
