"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { ClusterCapability, NamespaceCapability, WhoAmI } from "@/lib/domain/who-am-i.ts";
import { permissionIn, permissionOnCluster, type Permission } from "./permissions.ts";

export { permissionIn, permissionOnCluster, type Permission };

// What the signed-in person may do, as Kubernetes answered when the page was rendered: every
// control that acts asks here, and one the person may not use is shown disabled with the role
// they would need — decided by Kubernetes, not guessed.

const ViewerContext = createContext<WhoAmI | null>(null);

export function ViewerProvider({ you, children }: { you: WhoAmI; children: ReactNode }) {
  return <ViewerContext.Provider value={you}>{children}</ViewerContext.Provider>;
}

export function useViewer(): WhoAmI {
  const you = useContext(ViewerContext);
  if (!you) throw new Error("useViewer needs the console layout's ViewerProvider");
  return you;
}

export function useMayIn(capability: NamespaceCapability, namespace: string): Permission {
  return permissionIn(useViewer(), capability, namespace);
}

export function useMayOnCluster(capability: ClusterCapability): Permission {
  return permissionOnCluster(useViewer(), capability);
}

/** The namespaces where the person may do this. */
export function useNamespacesWhere(capability: NamespaceCapability): string[] {
  return useViewer()
    .namespaces.filter((entry) => entry.may.includes(capability))
    .map((entry) => entry.namespace);
}
