import type { Metadata } from "next";
import Link from "next/link";
import buttons from "@/app/components/buttons.module.css";
import { PageHeader } from "@/app/components/page-header.tsx";
import type { Runtime } from "@/lib/server/runtime.ts";
import { namespacesWithVisibleSandboxes } from "@/lib/server/visibility.ts";
import type { Caller } from "@/lib/identity/authenticate.ts";
import { requireViewer } from "../_components/page-caller.ts";
import { visibleTemplates } from "@/lib/server/template-service.ts";
import { WarmPoolStrip } from "../templates/_components/warm-pool-strip.tsx";
import { LiveSandboxTable } from "./_components/live-sandbox-table.tsx";
import { newestFirst, sandboxRow, type SandboxRow } from "./_components/sandbox-rows.ts";

export const metadata: Metadata = { title: "Sandboxes" };

/**
 * Rows the page's HTML carries: a tall screen's worth. The table reads the rest as soon as it
 * mounts, so a thousand sandboxes do not make a page of half a megabyte.
 */
const FIRST_SCREEN_ROWS = 40;

/** Every live sandbox the viewer may see, from the server's in-memory list; the table keeps it current from there. */
async function initialRows(runtime: Runtime, caller: Caller): Promise<SandboxRow[]> {
  const { live, store } = runtime;
  const all = live.ready ? live.all() : await store.sandboxes.listAllLive();
  const visible = await namespacesWithVisibleSandboxes(runtime, caller.person, all.map((record) => record.namespace));
  const records = all.filter((record) => visible.has(record.namespace));
  return records.map(sandboxRow).sort(newestFirst);
}

export default async function SandboxesPage() {
  const { runtime, caller, you } = await requireViewer();
  // Without agent-sandbox's extensions there are no pools to show: the page is the sandboxes alone.
  const [rows, templates] = await Promise.all([initialRows(runtime, caller), visibleTemplates(runtime, caller.person).catch(() => [])]);
  const creatable = you.namespaces.filter((entry) => entry.may.includes("createSandboxes"));
  return (
    <>
      <PageHeader
        title="Sandboxes"
        description="Agent environments: each one a Sandbox resource, its pod and its workspace."
        actions={
          creatable.length > 0 ? (
            <Link href="/sandboxes/new" className={buttons.primary}>
              Create sandbox
            </Link>
          ) : (
            <span className={buttons.reason}>You may not create sandboxes here: you need berth-developer in a namespace.</span>
          )
        }
      />
      <WarmPoolStrip initialTemplates={JSON.parse(JSON.stringify(templates))} />
      <LiveSandboxTable initialRows={rows.slice(0, FIRST_SCREEN_ROWS)} total={rows.length} initialAt={Date.now()} />
    </>
  );
}
