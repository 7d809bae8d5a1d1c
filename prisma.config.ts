import { defineConfig } from "prisma/config";

// `prisma generate` insists on a schema engine binary it never runs, and cannot download one
// offline; any existing file satisfies it. Migrations are applied by lib/store/migrator.ts
// and written by scripts/new-migration.ts, neither of which needs the native engine.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/false";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
