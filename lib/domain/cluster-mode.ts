import { z } from "zod";

/** How Berth reaches Kubernetes: its own simulated cluster, a kubeconfig, or a pod's service account. */
export const CLUSTER_MODES = ["embedded", "kubeconfig", "in-cluster"] as const;
export const clusterModeSchema = z.enum(CLUSTER_MODES);
export type ClusterMode = z.infer<typeof clusterModeSchema>;

/** The namespace of Berth's own service account in the embedded cluster, as the chart's release namespace is on a real one. */
export const EMBEDDED_BERTH_NAMESPACE = "berth-system";

/** Where Berth keeps its history: embedded PGlite, or PostgreSQL in production. */
export const STORE_KINDS = ["pglite", "postgresql"] as const;
export const storeKindSchema = z.enum(STORE_KINDS);
export type StoreKind = z.infer<typeof storeKindSchema>;
