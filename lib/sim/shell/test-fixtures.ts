import { imageRootFor } from "../filesystem/image-catalogue.ts";
import { PodFileSystem } from "../filesystem/pod-file-system.ts";
import { VolumeData } from "../filesystem/volume-data.ts";
import { type CommandResult, type ShellContext, runCommand } from "./run-command.ts";

export const SANDBOX_IMAGE = "ghcr.io/nvidia/openshell-community/sandboxes/base:latest";
export const CLOCK_START_MS = Date.UTC(2026, 10, 30, 12, 0, 0);

/**
 * A container of the community sandbox image with a writable workspace at /sandbox and a
 * read-only config volume at /etc/app, on a manual clock: sleeps are recorded and only end when
 * the test advances time (or at once, with `instantSleep`).
 */
export function sandboxContainer(options: { instantSleep?: boolean } = {}) {
  let now = CLOCK_START_MS;
  const sleeps: number[] = [];
  const waiting: { until: number; resolve: () => void }[] = [];
  const workspace = VolumeData.empty(0);
  const config = VolumeData.empty(0);
  config.writeText("/settings.json", '{"debug":false}\n', 0);
  const fs = new PodFileSystem({
    root: imageRootFor(SANDBOX_IMAGE),
    mounts: [
      { mountPath: "/sandbox", volume: workspace },
      { mountPath: "/etc/app", volume: config, readOnly: true },
    ],
    clock: () => now,
  });
  const sleep = (ms: number): Promise<void> => {
    sleeps.push(ms);
    if (options.instantSleep === true) {
      now += ms;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push({ until: now + ms, resolve }));
  };
  const advance = (ms: number) => {
    now += ms;
    for (const sleeper of waiting.filter((entry) => entry.until <= now)) {
      waiting.splice(waiting.indexOf(sleeper), 1);
      sleeper.resolve();
    }
  };
  const run = (argv: string[], extra: Partial<ShellContext> = {}): Promise<CommandResult> =>
    runCommand(argv, { fs, sleep, now: () => now, hostname: "my-box", ...extra });
  const sh = (script: string, extra: Partial<ShellContext> = {}) => run(["sh", "-c", script], extra);
  return { fs, workspace, config, sleeps, advance, run, sh, now: () => now, pendingSleeps: () => waiting.length };
}

/** Lets every queued promise callback run. */
export async function settle(): Promise<void> {
  for (let round = 0; round < 20; round += 1) await Promise.resolve();
  await new Promise<void>((resolve) => setImmediate(resolve));
}
