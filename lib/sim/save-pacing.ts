// How long the simulated cluster waits after a change before saving its state. Each save writes
// the whole state, so a fixed half second made a cluster of 10,000 sandboxes (8 MiB of JSON)
// make and write 16 MiB a second while it was busy: garbage the console's process had to
// collect. The wait grows with the state, so saving costs at most about
// SAVE_BYTES_PER_SECOND whatever the size; a crash loses at most that wait (stopping saves at once).

export const MIN_SAVE_DELAY_MS = 500;
/** What saving may write per second, at most, while the cluster keeps changing. */
export const SAVE_BYTES_PER_SECOND = 4 * 1024 * 1024;
export const MAX_SAVE_DELAY_MS = 30_000;

/** The wait before the next save, given the size of the last one written. */
export function saveDelayMs(lastStateBytes: number): number {
  return Math.min(MAX_SAVE_DELAY_MS, Math.max(MIN_SAVE_DELAY_MS, Math.round((lastStateBytes / SAVE_BYTES_PER_SECOND) * 1000)));
}
