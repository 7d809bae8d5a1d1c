#!/usr/bin/env node
// `berth`, Berth's command line. From a checkout it runs the TypeScript source through tsx
// (`npx berth …`); the image runs the same program bundled into one file (scripts/build-cli.ts).
import { register } from "tsx/esm/api";

register({ tsconfig: new URL("../tsconfig.json", import.meta.url).pathname });
await import("../lib/cli/main.ts");
