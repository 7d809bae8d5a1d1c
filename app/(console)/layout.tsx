import type { ReactNode } from "react";
import { Suspense } from "react";
import { Brand } from "@/app/components/brand.tsx";
import { SideNav } from "@/app/components/side-nav.tsx";
import { StatusBadges } from "@/app/components/status-badges.tsx";
import { LiveUpdates } from "./_components/live-updates.tsx";
import { requireViewer } from "./_components/page-caller.ts";
import { SignedInPerson } from "./_components/signed-in-person.tsx";
import { ViewerProvider } from "./_components/viewer-context.tsx";
import { QueryProvider } from "./_components/query-provider.tsx";
import { PENDING_STATUS, RuntimeStatus } from "./_components/runtime-status.tsx";
import styles from "./layout.module.css";

/**
 * The console shell: header with status, whether updates are live and who is signed in,
 * navigation on the left, the page in the main region. One react-query cache and one event
 * stream serve every page. Nobody sees any of it without signing in.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const { you } = await requireViewer();
  return (
    <QueryProvider>
    <ViewerProvider you={you}>
    <div className={styles.shell}>
      <a href="#main" className={styles.skipLink}>
        Skip to content
      </a>
      <header className={styles.header}>
        <Brand />
        <div className={styles.headerStatus}>
          <LiveUpdates />
          <Suspense fallback={<StatusBadges items={PENDING_STATUS} />}>
            <RuntimeStatus />
          </Suspense>
          <SignedInPerson />
        </div>
      </header>
      <div className={styles.sidebar}>
        <SideNav />
      </div>
      <main id="main" tabIndex={-1} className={styles.main}>
        <div className={styles.content}>{children}</div>
      </main>
    </div>
    </ViewerProvider>
    </QueryProvider>
  );
}
