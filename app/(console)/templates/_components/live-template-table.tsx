"use client";

import Link from "next/link";
import buttons from "@/app/components/buttons.module.css";
import { useViewer } from "@/app/(console)/_components/viewer-context.tsx";
import { permissionIn } from "@/app/(console)/_components/permissions.ts";
import { EmptyState } from "@/app/components/empty-state.tsx";
import { SandboxIcon } from "@/app/components/icons.tsx";
import tableStyles from "@/app/components/data-table.module.css";
import type { TemplateView } from "@/lib/domain/template-view.ts";
import { ClaimSandboxDialog } from "./claim-sandbox-dialog.tsx";
import { DeleteTemplateDialog } from "./delete-template-dialog.tsx";
import { WarmPoolDialog } from "./warm-pool-dialog.tsx";
import { WarmPoolMeter } from "./warm-pool-meter.tsx";
import styles from "./live-template-table.module.css";
import { useTemplates } from "./templates-query.ts";

function workspaceOf(template: TemplateView): string {
  const workspace = template.spec?.sandbox.workspace;
  if (!workspace) return "—";
  if (workspace.backend === "ephemeral") return "ephemeral (emptyDir)";
  const claim = workspace.claim;
  return [workspace.backend ?? "gateway default", claim?.size, claim?.storageClassName].filter(Boolean).join(" · ");
}

/** Every template the person may see, with its pool's ready/target. */
export function LiveTemplateTable({ initialTemplates }: { initialTemplates: TemplateView[] }) {
  const you = useViewer();
  const { templates, error, onChanged } = useTemplates(initialTemplates);
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
                      {template.managedByBerth && template.spec && may("changeTemplates") ? (
                        <>
                          <Link href={`/templates/${template.namespace}/${template.name}`} className={`${buttons.secondary} ${buttons.compact}`}>
                            Edit<span className="visually-hidden"> {template.name}</span>
                          </Link>
                          <WarmPoolDialog template={template} spec={template.spec} onChanged={onChanged} />
                        </>
                      ) : null}
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
