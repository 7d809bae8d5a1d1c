#!/usr/bin/env node
// `berth`, Berth's command line. From a checkout it runs the TypeScript source through tsx
// (`npx berth …`); the image runs the same program bundled (scripts/build-cli.ts).
import { readFileSync } from "node:fs";
import { register } from "tsx/esm/api";

register({ tsconfig: new URL("../tsconfig.json", import.meta.url).pathname });
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const { runBerth } = await import("../lib/cli/program.ts");
const { processIo } = await import("../lib/cli/io.ts");
process.exitCode = await runBerth(process.argv.slice(2), processIo, version);
