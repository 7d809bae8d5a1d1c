import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

// Whether `npm start` must build first: there is no standalone build, or a source of it is
// newer than the build. Tests are not sources of the build.

/** What the build is made from, relative to the project's root. */
export const BUILD_SOURCES = ["app", "lib", "public", "prisma", "proxy.ts", "instrumentation.ts", "next.config.ts", "package.json", "package-lock.json", "tsconfig.json"];
const IS_TEST = /\.(test|spec)\.tsx?$|\/testing\/|\/testdata\//;

function newestIn(file: string): number {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return IS_TEST.test(file) ? 0 : stat.mtimeMs;
  return readdirSync(file).reduce((newest, entry) => Math.max(newest, newestIn(path.join(file, entry))), 0);
}

/** Why a build is needed in `root`, or null when the one there is current. */
export function whyBuild(root: string): string | null {
  const server = path.join(root, ".next", "standalone", "server.js");
  if (!existsSync(server)) return "there is no standalone build yet";
  const built = statSync(server).mtimeMs;
  const changed = BUILD_SOURCES.find((source) => newestIn(path.join(root, source)) > built);
  return changed ? `${changed} changed since the last build` : null;
}
