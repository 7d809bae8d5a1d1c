// Bundles `berth` (lib/cli/main.ts) with everything it imports into one ES module that Node.js
// runs without node_modules: the image puts it at /app/bin/berth (scripts/standalone-layout.ts).
//
//   npx tsx scripts/build-cli.ts [output]        (default dist/berth.mjs)
import { chmodSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

const root = path.join(import.meta.dirname, "..");
export const CLI_BUNDLE = "dist/berth.mjs";

/**
 * ink connects to React's devtools only when DEV=true; the package is not installed, and the
 * bundle must not import what is not there. It is left empty.
 */
const withoutReactDevtools: Plugin = {
  name: "without-react-devtools",
  setup(build) {
    build.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: "react-devtools-core", namespace: "left-out" }));
    build.onLoad({ filter: /.*/, namespace: "left-out" }, () => ({ contents: "export default { initialize() {}, connectToDevTools() {} };", loader: "js" }));
  },
};

export async function buildCli(output = path.join(root, CLI_BUNDLE)): Promise<{ bytes: number }> {
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  const result = await build({
    entryPoints: [path.join(root, "lib/cli/main.ts")],
    outfile: output,
    bundle: true,
    platform: "node",
    target: "node22",
    format: "esm",
    minify: true,
    // The bundled packages' licence notices stay in the one file the image carries.
    legalComments: "eof",
    metafile: true,
    define: { BERTH_CLI_VERSION: JSON.stringify(version), "process.env.NODE_ENV": '"production"' },
    // CommonJS packages bundled into an ES module still call require() for Node's own modules.
    banner: { js: '#!/usr/bin/env node\nimport { createRequire as __berthRequire } from "node:module"; const require = __berthRequire(import.meta.url);' },
    plugins: [withoutReactDevtools],
    logLevel: "warning",
  });
  chmodSync(output, 0o755);
  return { bytes: result.metafile.outputs[path.relative(process.cwd(), output)]?.bytes ?? 0 };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const output = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const { bytes } = await buildCli(output);
  console.log(`berth bundled into ${output ?? CLI_BUNDLE} (${(bytes / 1024).toFixed(0)} KiB)`);
}
