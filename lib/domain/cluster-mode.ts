import { z } from "zod";

/** How Berth reaches Kubernetes: its own simulated cluster, a kubeconfig, or a pod's service account. */
export const CLUSTER_MODES = ["embedded", "kubeconfig", "in-cluster"] as const;
export const clusterModeSchema = z.enum(CLUSTER_MODES);
export type ClusterMode = z.infer<typeof clusterModeSchema>;

/** Where Berth keeps its history: embedded PGlite, or PostgreSQL in production. */
export const STORE_KINDS = ["pglite", "postgresql"] as const;
export const storeKindSchema = z.enum(STORE_KINDS);
export type StoreKind = z.infer<typeof storeKindSchema>;
