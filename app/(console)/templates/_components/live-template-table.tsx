"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef } from "react";
import { api } from "@/app/(console)/_components/api-client.ts";
import { serverRendered } from "@/app/(console)/_components/server-rendered.ts";
import { useViewer } from "@/app/(console)/_components/viewer-context.tsx";
import { permissionIn } from "@/app/(console)/_components/permissions.ts";
import { EmptyState } from "@/app/components/empty-state.tsx";
import { SandboxIcon } from "@/app/components/icons.tsx";
import tableStyles from "@/app/components/data-table.module.css";
import { isFilling, type TemplateView } from "@/lib/domain/template-view.ts";
import { ClaimSandboxDialog } from "./claim-sandbox-dialog.tsx";
import { DeleteTemplateDialog } from "./delete-template-dialog.tsx";
import { WarmPoolDialog } from "./warm-pool-dialog.tsx";
import { WarmPoolMeter } from "./warm-pool-meter.tsx";
import styles from "./live-template-table.module.css";

const POLL_MS = 2_000;
/** How long after a change here the list is looked at again, for the pool's controller to act. */
const AFTER_ACTION_MS = 30_000;

const fetchTemplates = (signal?: AbortSignal) => api.listTemplates({ signal }).then((answer) => answer.items);

function workspaceOf(template: TemplateView): string {
  const workspace = template.spec?.sandbox.workspace;
  if (!workspace) return "—";
  if (workspace.backend === "ephemeral") return "ephemeral (emptyDir)";
  const claim = workspace.claim;
  return [workspace.backend ?? "gateway default", claim?.size, claim?.storageClassName].filter(Boolean).join(" · ");
}

/** Every template the person may see, with its pool's ready/target, polled while a pool fills. */
export function LiveTemplateTable({ initialTemplates }: { initialTemplates: TemplateView[] }) {
  const queryClient = useQueryClient();
  const you = useViewer();
  const pollUntil = useRef(0);
  const { data: templates, error } = useQuery({
    queryKey: ["templates"],
    queryFn: ({ signal }) => fetchTemplates(signal),
    ...serverRendered(initialTemplates),
    // Pools fill and drain on their controller's time, not through Berth's event stream.
    refetchInterval: (query) => (query.state.data?.some(isFilling) || Date.now() < pollUntil.current ? POLL_MS : false),
  });
  const onChanged = useCallback(() => {
    pollUntil.current = Date.now() + AFTER_ACTION_MS;
    void queryClient.invalidateQueries({ queryKey: ["templates"] });
  }, [queryClient]);
  if (templates.length === 0) {
    return (
      <EmptyState icon={<SandboxIcon />} title="No templates yet">
        <p>
          A template holds what many sandboxes of a namespace share — profile, image, workspace, disruption policy — and can keep a
          warm pool of them started. Platform admins create them here or through the API (<code>POST /api/v1/templates</code>).
        </p>
      </EmptyState>
    );
  }
  const caption = `Templates (${templates.length})`;
  return (
    <>
      {error ? <p className={styles.warning} role="alert">Could not refresh the list: {(error as Error).message}. Showing the last one received.</p> : null}
      <div className={tableStyles.frame} role="region" aria-label={caption} tabIndex={0}>
        <table className={tableStyles.table}>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Template</th>
              <th scope="col">Image</th>
              <th scope="col">Workspace</th>
              <th scope="col">Warm pool</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {templates.map((template) => {
              const may = (capability: "claimSandboxes" | "changeTemplates" | "deleteTemplates") => permissionIn(you, capability, template.namespace).allowed;
              return (
                <tr key={`${template.namespace}/${template.name}`}>
                  <th scope="row" className={tableStyles.primary}>
                    {template.name}
                    <span className={styles.sub}>
                      {template.namespace}
                      {template.description ? ` · ${template.description}` : ""}
                      {template.managedByBerth ? "" : " · made outside Berth"}
                    </span>
                  </th>
                  <td className={tableStyles.mono}>{template.image ?? <span className={styles.muted}>—</span>}</td>
                  <td>{workspaceOf(template)}</td>
                  <td>{template.warmPool ? <WarmPoolMeter pool={template.warmPool} /> : <span className={styles.muted}>none: every sandbox a cold start</span>}</td>
                  <td>
                    <div className={styles.actions}>
                      {template.warmPool && may("claimSandboxes") ? <ClaimSandboxDialog template={template} /> : null}
                      {template.managedByBerth && template.spec && may("changeTemplates") ? <WarmPoolDialog template={template} spec={template.spec} onChanged={onChanged} /> : null}
                      {may("deleteTemplates") ? <DeleteTemplateDialog template={template} onChanged={onChanged} /> : null}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
