import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Where scripts/cluster/build-control-plane.sh caches its binaries: <cache>/<versions>/bin. */
export function controlPlaneCache(env: NodeJS.ProcessEnv = process.env): string {
  return env.BERTH_CLUSTER_CACHE ?? path.join(homedir(), ".cache", "berth-cluster");
}

/** The kubectl binaries the real-control-plane build cached, in reverse name order (the versions are in the names). */
function cachedKubectls(cache: string): string[] {
  if (!existsSync(cache)) return [];
  return readdirSync(cache)
    .sort()
    .reverse()
    .map((versions) => path.join(cache, versions, "bin", "kubectl"))
    .filter((file) => existsSync(file));
}

async function runs(kubectl: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    await run(kubectl, ["version", "--client"], { env });
    return true;
  } catch {
    return false;
  }
}

/**
 * A kubectl to run: the one on PATH, else one the real-control-plane build cached; or why
 * there is none, for a skipped test to say.
 */
export async function findKubectl(env: NodeJS.ProcessEnv = process.env): Promise<{ kubectl: string } | { missing: string }> {
  const cache = controlPlaneCache(env);
  for (const candidate of ["kubectl", ...cachedKubectls(cache)]) if (await runs(candidate, env)) return { kubectl: candidate };
  return { missing: `kubectl is not on this machine's PATH, nor cached under ${cache}/*/bin (scripts/cluster/build-control-plane.sh puts one there)` };
}
