import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

// The versions scripts/cluster/versions.sh pins, and where the Go module proxy puts a module of
// that version: what the generators read the published definitions and documents from.

const versions = path.join(import.meta.dirname, "versions.sh");

export function pinnedVersion(name: string): string {
  const match = new RegExp(`^${name}=(\\S+)`, "m").exec(readFileSync(versions, "utf8"));
  if (!match) throw new Error(`scripts/cluster/versions.sh names no ${name}`);
  return match[1]!;
}

/** `go mod download` of the module at the version (from the proxy, or the module cache), and its directory. */
export function moduleDirectory(module: string, version: string, goModuleDir: string): string {
  const answer = JSON.parse(execFileSync("go", ["mod", "download", "-json", `${module}@${version}`], { cwd: goModuleDir, encoding: "utf8" })) as { Dir?: string; Error?: string };
  if (!answer.Dir) throw new Error(`go mod download ${module}@${version}: ${answer.Error ?? "no directory"}`);
  return answer.Dir;
}
