import type { Metadata } from "next";
import { PageHeader } from "@/app/components/page-header.tsx";
import { auditQuerySchema } from "@/lib/domain/audit.ts";
import { problemsFromZodError } from "@/lib/domain/problems.ts";
import { permissionOnCluster } from "../_components/permissions.ts";
import { requireViewer } from "../_components/page-caller.ts";
import { RefusedPage } from "../_components/refused-page.tsx";
import { AuditFilters, FILTER_NAMES, type AuditFilterValues } from "./_components/audit-filters.tsx";
import { AuditTable } from "./_components/audit-table.tsx";
import styles from "../page.module.css";

export const metadata: Metadata = { title: "Audit log" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The filters as given, blanks dropped: the form shows them back, the query reads them. */
function filtersOf(params: Record<string, string | string[] | undefined>): AuditFilterValues {
  return Object.fromEntries(
    FILTER_NAMES.flatMap((name) => {
      const value = params[name];
      return typeof value === "string" && value.trim() !== "" ? [[name, value.trim()]] : [];
    }),
  );
}

/** Every write made through Berth, newest first: who (as Kubernetes knows them), what, the decision and the outcome. */
export default async function AuditPage({ searchParams }: { searchParams: SearchParams }) {
  const { runtime, you } = await requireViewer();
  const header = <PageHeader title="Audit log" description="Every change asked for through Berth — allowed or refused, done or failed — with the person Berth verified and their groups." />;
  const readable = permissionOnCluster(you, "readAudit");
  if (!readable.allowed) {
    return (
      <RefusedPage header={header} title="Kubernetes does not let you read the audit log">
        {readable.reason}
      </RefusedPage>
    );
  }
  const params = await searchParams;
  const filters = filtersOf(params);
  const cursor = typeof params.cursor === "string" ? params.cursor : undefined;
  const query = auditQuerySchema.safeParse({ ...filters, ...(cursor ? { cursor } : {}) });
  const problems = query.success ? [] : problemsFromZodError(query.error);
  const page = query.success ? await runtime.store.audit.listChanges(query.data) : null;
  return (
    <>
      {header}
      <AuditFilters values={filters} problems={problems} />
      {page ? (
        <AuditTable entries={page.items} filtered={Object.keys(filters).length > 0} olderHref={page.nextCursor ? `/audit?${new URLSearchParams({ ...filters, cursor: page.nextCursor })}` : null} />
      ) : (
        <p className={styles.note} role="alert">
          Nothing is shown until the filters are fixed.
        </p>
      )}
    </>
  );
}
