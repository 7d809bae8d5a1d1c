"use client";

import { useQueryClient } from "@tanstack/react-query";
import { api, send } from "@/app/(console)/_components/api-client.ts";
import { TypedDeleteDialog } from "@/app/(console)/_components/typed-delete-dialog.tsx";
import type { TemplateView } from "@/lib/domain/template-view.ts";

function whatIsLost(template: TemplateView): string {
  const pool = template.warmPool ? ` Its warm pool goes with it, and the ${template.warmPool.members} sandboxes waiting in it.` : "";
  return `No new sandbox can be made from ${template.name}.${pool} Sandboxes already made from it stay, with their workspaces.`;
}

/** Delete a template (and its pool), confirmed by typing its name. */
export function DeleteTemplateDialog({ template, onChanged }: { template: TemplateView; onChanged: () => void }) {
  const queryClient = useQueryClient();
  return (
    <TypedDeleteDialog
      name={template.name}
      title={`Delete template ${template.name}?`}
      whatIsLost={whatIsLost(template)}
      confirmLabel="Delete template"
      remove={() => send(() => api.deleteTemplate({ params: { namespace: template.namespace, name: template.name } }))}
      onDeleted={() => {
        // Gone for the person at once; the list catches up with the cluster behind it.
        queryClient.setQueryData<TemplateView[]>(["templates"], (old) => old?.filter((one) => !(one.namespace === template.namespace && one.name === template.name)));
        onChanged();
      }}
    />
  );
}
