/**
 * Formatting for display only. Pure; the caller passes "now" so server and tests agree.
 */

/** Age in the style of kubectl: 45s, 12m, 5h, 3d, 2y. */
export function formatAge(since: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 730) return `${days}d`;
  return `${Math.floor(days / 365)}y`;
}

/** A full timestamp for tooltips, in UTC so it reads the same for everyone on the team. */
export function formatTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
