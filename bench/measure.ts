export interface Measurement {
  name: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

export const median = (values: number[]): number => percentile([...values].sort((a, b) => a - b), 0.5);

/** Runs `operation` a fixed number of times, one after another, and reports median and p95. */
export async function measure(name: string, runs: number, operation: (i: number) => Promise<unknown> | unknown): Promise<Measurement> {
  const durations: number[] = [];
  for (let i = 0; i < runs; i++) {
    const began = performance.now();
    await operation(i);
    durations.push(performance.now() - began);
  }
  durations.sort((a, b) => a - b);
  return { name, runs, medianMs: percentile(durations, 0.5), p95Ms: percentile(durations, 0.95) };
}

export const ms = (value: number) => (value >= 10 ? value.toFixed(1) : value.toFixed(3));
