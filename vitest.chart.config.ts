import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

// The Helm chart's tests, run by `npm test` with BERTH_HELM set (they need helm, built once
// from its Go module); kept out of the unit suite, which needs nothing but Node.
export default defineConfig({ ...base, test: { ...base.test, include: ["charts/**/*.test.ts"] } });
