import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findKubectl } from "./kubectl.ts";

// Which kubectl the smoke tests run when the machine has none on PATH.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function emptyCache(): string {
  const cache = mkdtempSync(path.join(tmpdir(), "berth-cluster-cache-"));
  dirs.push(cache);
  return cache;
}

/** A stand-in kubectl that answers `version --client`, where build-control-plane.sh caches the real one. */
function cacheWithKubectl(): string {
  const cache = emptyCache();
  const bin = path.join(cache, "kubernetes-v1.36.3.etcd-v3.6.16", "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, "kubectl"), "#!/bin/sh\nexit 0\n");
  chmodSync(path.join(bin, "kubectl"), 0o755);
  return cache;
}

const withoutKubectlOnPath = (cache: string): NodeJS.ProcessEnv => ({ ...process.env, PATH: "/nonexistent", BERTH_CLUSTER_CACHE: cache });

describe("finding kubectl", () => {
  it("falls back to the one the real-control-plane build cached", async () => {
    const cache = cacheWithKubectl();
    expect(await findKubectl(withoutKubectlOnPath(cache))).toEqual({ kubectl: path.join(cache, "kubernetes-v1.36.3.etcd-v3.6.16", "bin", "kubectl") });
  });

  it("says where it looked when there is none", async () => {
    const cache = emptyCache();
    expect(await findKubectl(withoutKubectlOnPath(cache))).toEqual({ missing: expect.stringContaining(`nor cached under ${cache}/*/bin`) });
  });
});
