import type { ReactNode } from "react";
import { NodeIcon, SandboxIcon, SettingsIcon, VolumeIcon } from "./icons.tsx";
import { NavLink } from "./nav-link.tsx";
import styles from "./side-nav.module.css";

const SECTIONS: ReadonlyArray<{ href: string; label: string; icon: ReactNode }> = [
  { href: "/sandboxes", label: "Sandboxes", icon: <SandboxIcon /> },
  { href: "/volumes", label: "Volumes", icon: <VolumeIcon /> },
  { href: "/nodes", label: "Nodes", icon: <NodeIcon /> },
  { href: "/settings", label: "Settings", icon: <SettingsIcon /> },
];

/** The console's main navigation. */
export function SideNav() {
  return (
    <nav aria-label="Console" className={styles.nav}>
      <ul className={styles.list}>
        {SECTIONS.map((section) => (
          <li key={section.href}>
            <NavLink href={section.href}>
              <span className={styles.icon}>{section.icon}</span>
              {section.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
