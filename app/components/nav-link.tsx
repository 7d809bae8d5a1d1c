"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import styles from "./side-nav.module.css";

/** A navigation link that marks itself as the current page (itself or anything below it). */
export function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const pathname = usePathname();
  const current = pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link href={href} className={styles.link} aria-current={current ? "page" : undefined}>
      {children}
    </Link>
  );
}
