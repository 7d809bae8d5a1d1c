import { readFileSync } from "node:fs";
import { processIo } from "./io.ts";
import { runBerth } from "./program.ts";

// `berth`'s entry: from a checkout through bin/berth.mjs (tsx), in the image bundled into one file
// by scripts/build-cli.ts, which writes the version in as BERTH_CLI_VERSION.

declare const BERTH_CLI_VERSION: string | undefined;

function version(): string {
  if (typeof BERTH_CLI_VERSION === "string") return BERTH_CLI_VERSION;
  return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
}

process.exitCode = await runBerth(process.argv.slice(2), processIo, version());
