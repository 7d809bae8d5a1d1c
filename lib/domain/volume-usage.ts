import { z } from "zod";

// How full a claim is, as the kubelet of the node that mounts it measures it (its Summary API,
// `stats/summary`, volume stats refreshed about once a minute). Only a mounted claim is measured:
// the kubelet reports the volumes of its running pods, nothing else. Pure.

/** The part of the kubelet's Summary that Berth reads: each pod's volumes and the claims they come from. */
export const kubeletSummarySchema = z.object({
  pods: z
    .array(
      z.object({
        podRef: z.object({ name: z.string(), namespace: z.string() }),
        volume: z
          .array(
            z.object({
              name: z.string(),
              time: z.string().optional(),
              usedBytes: z.number().nonnegative().optional(),
              capacityBytes: z.number().nonnegative().optional(),
              availableBytes: z.number().nonnegative().optional(),
              pvcRef: z.object({ name: z.string(), namespace: z.string() }).optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
});
export type KubeletSummary = z.infer<typeof kubeletSummarySchema>;

export const claimUsageSchema = z.object({
  /** Bytes in use on the claim's volume; null when not known (see usageUnknownReason). */
  usedBytes: z.number().nullable(),
  /** The volume's size as its file system sees it; may exceed the request (local-path reports its disk). */
  capacityBytes: z.number().nullable(),
  /** When the kubelet measured it. */
  usageObservedAt: z.string().nullable(),
  /** Why there is no figure: not mounted, Berth may not ask, the kubelet did not answer. */
  usageUnknownReason: z.string().nullable(),
});
export type ClaimUsage = z.infer<typeof claimUsageSchema>;

/** A claim at or above this share of its capacity is flagged nearly full. */
export const NEARLY_FULL_SHARE = 0.9;

export const unknownUsage = (reason: string): ClaimUsage => ({ usedBytes: null, capacityBytes: null, usageObservedAt: null, usageUnknownReason: reason });

export const NOT_MOUNTED = "not mounted: the kubelet measures a volume only while a pod uses it";
export const NOT_MEASURED = "not measured yet";

/** Each claim the summary reports, by `namespace/name`. */
export function claimUsagesIn(summary: KubeletSummary, observedAt: string): Map<string, ClaimUsage> {
  const usages = new Map<string, ClaimUsage>();
  for (const pod of summary.pods ?? []) {
    for (const volume of pod.volume ?? []) {
      if (!volume.pvcRef || volume.usedBytes === undefined || volume.capacityBytes === undefined) continue;
      usages.set(`${volume.pvcRef.namespace}/${volume.pvcRef.name}`, {
        usedBytes: volume.usedBytes,
        capacityBytes: volume.capacityBytes,
        usageObservedAt: volume.time ?? observedAt,
        usageUnknownReason: null,
      });
    }
  }
  return usages;
}

/** The share of its capacity a claim uses, 0–1; null when unknown. */
export function usedShare(usage: Pick<ClaimUsage, "usedBytes" | "capacityBytes">): number | null {
  if (usage.usedBytes === null || usage.capacityBytes === null || usage.capacityBytes <= 0) return null;
  return Math.min(1, usage.usedBytes / usage.capacityBytes);
}

export function isNearlyFull(usage: Pick<ClaimUsage, "usedBytes" | "capacityBytes">): boolean {
  const share = usedShare(usage);
  return share !== null && share >= NEARLY_FULL_SHARE;
}
