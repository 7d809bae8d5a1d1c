import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The image runs `.next/standalone/server.js` (see the Dockerfile and
  // scripts/ci/check-standalone-server.ts): only the traced files, no full node_modules.
  // `next start` still serves the ordinary build (it prints a warning that it "does not work
  // with standalone", but it serves exactly as before); `npm start` and Playwright use it.
  output: "standalone",
  // Read with fs at run time, so declared rather than left to the tracer's guesses: the
  // migrations (lib/store/migrator.ts reads prisma/migrations from the working directory, which
  // server.js sets to its own directory) and PGlite's WebAssembly and data files (loaded by URL
  // from its package). Every route that can open the store gets them; server.js needs them once.
  outputFileTracingIncludes: {
    "/**": [
      "./prisma/migrations/*/migration.sql",
      "./node_modules/@electric-sql/pglite/dist/*.wasm",
      "./node_modules/@electric-sql/pglite/dist/*.data",
    ],
  },
  // Native and WebAssembly database drivers must be loaded by Node, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg", "@kubernetes/client-node", "ws", "oidc-provider"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
