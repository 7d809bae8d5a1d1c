// How old something is, written as kubectl writes its AGE column (apimachinery's
// duration.HumanDuration): precise while it is young, coarser as it gets older.

export function humanDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 10) {
    const rest = Math.floor(ms / 1000) % 60;
    return rest === 0 ? `${minutes}m` : `${minutes}m${rest}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 8) {
    const rest = minutes % 60;
    return rest === 0 ? `${hours}h` : `${hours}h${rest}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const rest = hours % 24;
    return rest === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${rest}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    return days === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${days}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** The age of something made at `then`, seen at `now`; "<unknown>" as kubectl says when there is no time. */
export function ageOf(then: Date | string | null, now: Date): string {
  if (then === null) return "<unknown>";
  return humanDuration(now.getTime() - new Date(then).getTime());
}
