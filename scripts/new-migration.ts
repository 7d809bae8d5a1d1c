// Writes the next migration offline: diffs the committed migrations against
// prisma/schema.prisma with Prisma's schema engine compiled to WebAssembly, using an
// in-memory PGlite as the shadow database. No native engine, no database server, no network.
//
//   npm run migration:new -- <name>        writes prisma/migrations/<timestamp>_<name>/migration.sql
//   npm run migration:check                fails if the schema has changes no migration holds
import { readdir, readFile, mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";

const root = path.resolve(import.meta.dirname, "..");
const schemaPath = path.join(root, "prisma", "schema.prisma");
const migrationsDir = path.join(root, "prisma", "migrations");
const EMPTY = "-- This is an empty migration.";

type SchemaEngineModule = typeof import("@prisma/schema-engine-wasm");

async function loadSchemaEngine(): Promise<SchemaEngineModule> {
  // The package's entry imports the .wasm as an ES module, which node 20 cannot do without
  // a flag; instantiate it by hand with the glue module as its import object.
  const require = createRequire(import.meta.url);
  const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const glue = (await import(gluePath)) as SchemaEngineModule & {
    __wbg_set_wasm(exports: WebAssembly.Exports): void;
  };
  const bytes = await readFile(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": glue as never });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue;
}

async function committedMigrations() {
  const names = (await readdir(migrationsDir, { withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok" as const, value: await readFile(path.join(migrationsDir, name, "migration.sql"), "utf8") },
      },
    })),
  );
}

async function diffSchemaAgainstMigrations(): Promise<string> {
  const { SchemaEngine } = await loadSchemaEngine();
  const schemaText = await readFile(schemaPath, "utf8");
  const factory = bindMigrationAwareSqlAdapterFactory(new PrismaPGlite(new PGlite()));
  const engine = await SchemaEngine.new(
    { datamodels: [[schemaPath, schemaText]] },
    () => {},
    factory,
  );
  try {
    const migrations = await committedMigrations();
    const from =
      migrations.length === 0
        ? { tag: "empty" as const }
        : {
            tag: "migrations" as const,
            baseDir: migrationsDir,
            lockfile: { path: "migration_lock.toml", content: 'provider = "postgresql"\n' },
            shadowDbInitScript: "",
            migrationDirectories: migrations,
          };
    const result = await engine.diff({
      from,
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schemaText }] },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    } as never);
    return (result as { stdout: string }).stdout;
  } catch (error) {
    const id = /External error id#(\d+)/.exec(String(error))?.[1];
    if (id) throw new Error(`${String(error)}\n${JSON.stringify(factory.errorRegistry.consumeError(Number(id)))}`);
    throw error;
  } finally {
    engine.free();
  }
}

function timestamp(now = new Date()): string {
  return now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

async function main() {
  const [command, name] = process.argv.slice(2);
  const sql = await diffSchemaAgainstMigrations();
  const pending = !sql.trimStart().startsWith(EMPTY) && sql.trim() !== "";
  if (command === "check") {
    if (pending) {
      console.error("prisma/schema.prisma has changes that no migration holds:\n\n" + sql);
      console.error("Write one with: npm run migration:new -- <name>");
      process.exit(1);
    }
    console.log("Migrations match prisma/schema.prisma.");
    return;
  }
  if (command !== "new" || !name || !/^[a-z0-9_]+$/.test(name)) {
    console.error("usage: new-migration.ts new <snake_case_name> | check");
    process.exit(2);
  }
  if (!pending) {
    console.log("No schema changes: nothing to write.");
    return;
  }
  const dir = path.join(migrationsDir, `${timestamp()}_${name}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "migration.sql"), sql);
  await writeFile(path.join(migrationsDir, "migration_lock.toml"), 'provider = "postgresql"\n');
  console.log(`Wrote ${path.relative(root, dir)}/migration.sql`);
}

await main();
