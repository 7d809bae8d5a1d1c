import Link from "next/link";
import styles from "./brand.module.css";

/** The product mark (a sandbox moored in its berth) and name; links to the console's first page. */
export function Brand() {
  return (
    <Link href="/sandboxes" className={styles.brand}>
      <svg className={styles.mark} viewBox="0 0 32 32" width="24" height="24" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="currentColor" />
        <path
          d="M8.5 9v13.5a1 1 0 0 0 1 1h13a1 1 0 0 0 1-1V9"
          stroke="#fff"
          strokeWidth="2.4"
          strokeLinecap="round"
          strokeLinejoin="round"
          fill="none"
        />
        <rect x="12.5" y="12" width="7" height="7.5" rx="1.5" fill="#fff" />
      </svg>
      <span className={styles.name}>Berth</span>
    </Link>
  );
}
