import type { ReactNode } from "react";
import { EmptyState } from "@/app/components/empty-state.tsx";

/** A console page the viewer may not see: its header, what Kubernetes refused, and why. */
export function RefusedPage({ header, title, children }: { header: ReactNode; title: string; children: ReactNode }) {
  return (
    <>
      {header}
      <EmptyState title={title}>
        <p>{children}</p>
      </EmptyState>
    </>
  );
}
