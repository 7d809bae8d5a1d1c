import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    // Store tests open real databases (PGlite in-process, PostgreSQL over the network):
    // give them room, and never run two PGlite-heavy files at once on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
