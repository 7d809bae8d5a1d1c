"use client";

import Link, { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import styles from "./side-nav.module.css";

/**
 * A navigation link that marks itself as the current page (itself or anything below it), and
 * shows a spinner while the page it leads to is on its way. Pages have no loading fallback: on a
 * first load it would hold their content back (React reveals streamed content in batches, no
 * sooner than 300 ms after the fallback was painted), so the page being left stays until the next
 * one is ready, and the link says it is coming.
 */
export function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const pathname = usePathname();
  const current = pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link href={href} className={styles.link} aria-current={current ? "page" : undefined}>
      {children}
      <PendingSpinner />
    </Link>
  );
}

function PendingSpinner() {
  const { pending } = useLinkStatus();
  return pending ? <span className={styles.pending} aria-hidden="true" data-pending /> : null;
}
