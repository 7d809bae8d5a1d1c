import { isNearlyFull, usedShare, type ClaimUsage } from "@/lib/domain/volume-usage.ts";
import { formatBytes } from "./format.ts";
import styles from "./usage-meter.module.css";

/** What a claim's figures say in words: "1.2 GiB of 5.0 GiB used (24%)". */
export function usageText(usage: ClaimUsage): string {
  const share = usedShare(usage);
  if (share === null) return "unknown";
  return `${formatBytes(usage.usedBytes!)} of ${formatBytes(usage.capacityBytes!)} used (${Math.round(share * 100)}%)`;
}

/**
 * How full a claim is, as a bar and in words; a nearly full one in the warning colour. Without
 * figures it says "unknown", and why on hover.
 */
export function UsageMeter({ usage, label }: { usage: ClaimUsage; label: string }) {
  const share = usedShare(usage);
  if (share === null) {
    return (
      <span className={styles.unknown} title={usage.usageUnknownReason ?? undefined}>
        unknown
        {usage.usageUnknownReason ? <span className="visually-hidden">: {usage.usageUnknownReason}</span> : null}
      </span>
    );
  }
  const nearlyFull = isNearlyFull(usage);
  return (
    <span className={styles.usage} data-nearly-full={nearlyFull || undefined} title={usage.usageObservedAt ? `measured by the kubelet at ${usage.usageObservedAt}` : undefined}>
      <meter className={styles.meter} min={0} max={1} value={share} low={0.75} high={0.9} optimum={0} aria-label={label} aria-valuetext={usageText(usage)} />
      <span className={styles.text}>{usageText(usage)}</span>
    </span>
  );
}
