import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The same "@/..." imports as the Next.js build (tsconfig paths), for tests of app/ modules.
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts", "app/**/*.test.tsx", "scripts/**/*.test.ts"],
    // Needs a real control plane's audit log: `npm run test:cluster` runs it.
    exclude: ["scripts/cluster/**", "node_modules/**"],
    environment: "node",
    // The server's log: its errors only, not a line per request or disruption (lib/platform/logger.ts).
    env: { BERTH_LOG_LEVEL: process.env.BERTH_LOG_LEVEL ?? "error" },
    // Store tests open real databases (PGlite in-process, PostgreSQL over the network):
    // give them room, and never run two PGlite-heavy files at once on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
