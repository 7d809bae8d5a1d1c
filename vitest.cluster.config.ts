import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `npm run test:cluster` (scripts/cluster/test-cluster.ts): the driver suite, leader election, the
// authorization matrix and three replicas against a real control plane, then the chart's RBAC check. One file at a time: the files share one cluster,
// and a drain in one would move the sandboxes of another.
export default defineConfig({
  // The matrix calls the app's route modules, which import as the Next.js build does.
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["lib/sandboxes/driver-suite/**/*.test.ts", "lib/kube/leader-election.test.ts", "app/api/authorization-matrix.test.ts", "app/api/replicas.test.ts", "scripts/cluster/**/*.test.ts"],
    environment: "node",
    // The server's log: its errors only, not a line per request or disruption (lib/platform/logger.ts).
    env: { BERTH_LOG_LEVEL: process.env.BERTH_LOG_LEVEL ?? "error" },
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 600_000,
  },
});
