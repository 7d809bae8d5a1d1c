import { connection } from "next/server";
import { getRuntime } from "@/lib/server/runtime.ts";
import { NavLink } from "./nav-link.tsx";
import styles from "./side-nav.module.css";

/** The Simulator's navigation entry: only on the embedded cluster, the one place where it exists. */
export async function SimulatorNavItem() {
  await connection();
  // A runtime that cannot start has no simulator to offer; the header's badges say why.
  const embedded = await getRuntime().then(
    (runtime) => runtime.cluster.simulatorUrl !== null,
    () => false,
  );
  if (!embedded) return null;
  return (
    <li>
      <NavLink href="/simulator">
        <span className={styles.icon}>
          <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
            <path d="M13 3 5 13.5h6L10 21l8-10.5h-6L13 3Z" />
          </svg>
        </span>
        Simulator
      </NavLink>
    </li>
  );
}
