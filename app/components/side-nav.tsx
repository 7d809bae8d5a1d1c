import { Fragment, Suspense, type ReactNode } from "react";
import { AuditIcon, NodeIcon, SandboxIcon, SettingsIcon, TemplateIcon, VolumeIcon } from "./icons.tsx";
import { NavLink } from "./nav-link.tsx";
import styles from "./side-nav.module.css";
import { SimulatorNavItem } from "./simulator-nav-item.tsx";

const SECTIONS: ReadonlyArray<{ href: string; label: string; icon: ReactNode }> = [
  { href: "/sandboxes", label: "Sandboxes", icon: <SandboxIcon /> },
  { href: "/templates", label: "Templates", icon: <TemplateIcon /> },
  { href: "/volumes", label: "Volumes", icon: <VolumeIcon /> },
  { href: "/nodes", label: "Nodes", icon: <NodeIcon /> },
  { href: "/settings", label: "Settings", icon: <SettingsIcon /> },
  { href: "/audit", label: "Audit log", icon: <AuditIcon /> },
];

/** The console's main navigation; the Simulator follows Nodes when the console runs on the embedded cluster. */
export function SideNav() {
  return (
    <nav aria-label="Console" className={styles.nav}>
      <ul className={styles.list}>
        {SECTIONS.map((section) => (
          <Fragment key={section.href}>
            <li>
              <NavLink href={section.href}>
                <span className={styles.icon}>{section.icon}</span>
                {section.label}
              </NavLink>
            </li>
            {section.href === "/nodes" ? (
              <Suspense fallback={null}>
                <SimulatorNavItem />
              </Suspense>
            ) : null}
          </Fragment>
        ))}
      </ul>
    </nav>
  );
}
