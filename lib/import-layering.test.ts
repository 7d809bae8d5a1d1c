import { readdirSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { parseSync, Visitor } from "vite";
import { describe, expect, it } from "vitest";

// The layering the README's "Layout" states, checked on every import in the source tree, so a
// shortcut through a layer fails here with the file and the import instead of being found in
// review (or in the browser bundle, for lib/domain and lib/render).

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const NOT_SOURCE_DIRS = new Set(["node_modules", "generated", "tmp", "test-results", "playwright-report"]);

interface Import {
  /** The importing file, relative to the repository root with "/" separators. */
  file: string;
  line: number;
  specifier: string;
  /** `import type`, `import { type X }` only, `export type … from`, `typeof import(…)`: erased at compile time. */
  typeOnly: boolean;
  /** The file it names, relative to the root, when it names one of ours; null for a package. */
  target: string | null;
}

function sourceFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith(".") || NOT_SOURCE_DIRS.has(entry.name) ? [] : sourceFiles(full);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path.relative(ROOT, full).split(path.sep).join("/")] : [];
  });
}

function targetOf(file: string, specifier: string): string | null {
  const absolute = specifier.startsWith(".")
    ? path.resolve(ROOT, path.dirname(file), specifier)
    : specifier.startsWith("@/")
      ? path.resolve(ROOT, specifier.slice(2))
      : null;
  return absolute === null ? null : path.relative(ROOT, absolute).split(path.sep).join("/");
}

/** Every import of one file: static, re-exports, `import()` and `typeof import()`. */
function importsOf(file: string, text: string): { imports: Import[]; problems: string[] } {
  const parsed = parseSync(file, text);
  const problems = parsed.errors.map((error) => `${file}: cannot be parsed, so its imports cannot be checked: ${error.message}`);
  const imports: Import[] = [];
  const lineAt = (offset: number) => text.slice(0, offset).split("\n").length;
  const add = (specifier: string, offset: number, typeOnly: boolean) =>
    imports.push({ file, line: lineAt(offset), specifier, typeOnly, target: targetOf(file, specifier) });
  // `import { type A, type B } from "m"` is erased like `import type`; a default or namespace
  // import never is.
  new Visitor({
    ImportDeclaration: (node) => {
      const onlyTypes = node.specifiers.length > 0 && node.specifiers.every((one) => one.type === "ImportSpecifier" && one.importKind === "type");
      add(node.source.value, node.start, node.importKind === "type" || onlyTypes);
    },
    ExportNamedDeclaration: (node) => {
      const onlyTypes = node.specifiers.length > 0 && node.specifiers.every((one) => one.exportKind === "type");
      if (node.source) add(node.source.value, node.start, node.exportKind === "type" || onlyTypes);
    },
    ExportAllDeclaration: (node) => add(node.source.value, node.start, node.exportKind === "type"),
    TSImportType: (node) => add(node.source.value, node.start, true),
    ImportExpression: (node) => {
      const source = node.source;
      if (source.type === "Literal" && typeof source.value === "string") add(source.value, node.start, false);
      else if (source.type === "TemplateLiteral" && source.expressions.length === 0) add(source.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join(""), node.start, false);
      // A computed module name could be anything: no rule below could vouch for it.
      else problems.push(`${file}:${lineAt(node.start)}: import() of a computed module name, which this check cannot follow`);
    },
  }).visit(parsed.program);
  return { imports, problems };
}

/**
 * Files allowed import()s the scan cannot follow: how many, and why. The check fails when the
 * count changes, so a new one is looked at and a stale entry removed.
 */
const COMPUTED_IMPORTS = new Map([
  // Loads @prisma/schema-engine-wasm's glue module by its resolved path: Node 20 cannot import the
  // package's entry, which imports a .wasm file. The schema engine of the migration writer, not
  // the Prisma client.
  ["scripts/new-migration.ts", 1],
  // The API test harnesses load the route module of each row of the endpoint table by its path:
  // a route added later is reached without anyone listing it.
  ["app/api/testing/route-modules.ts", 1],
]);

const scanned = sourceFiles().map((file) => importsOf(file, readFileSync(path.join(ROOT, file), "utf8")));
const allImports = scanned.flatMap((one) => one.imports);

const under = (file: string | null, ...dirs: string[]) => file !== null && dirs.some((dir) => file.startsWith(`${dir}/`));
const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
const describeImport = (one: Import) => `${one.file}:${one.line} imports ${one.typeOnly ? "type " : ""}"${one.specifier}"`;

/**
 * Tests and what only tests use: the rules below are about what the product does, and a test may
 * reach past a layer to set up or inspect a world (a simulated cluster, a raw client).
 */
function isTestSupport(file: string): boolean {
  return (
    /\.(test|spec|bench)\.tsx?$/.test(file) ||
    /(^|\/)(testing|testdata|driver-suite)\//.test(file) ||
    /(^|\/)(test-fixtures|test-databases)\.ts$/.test(file) ||
    under(file, "e2e", "bench", "scripts", "charts") ||
    /^(vitest|vitest\.\w+|playwright)\.config\.ts$/.test(file)
  );
}
const isProduct = (file: string) => (under(file, "app", "lib") || file === "instrumentation.ts" || file === "next.config.ts") && !isTestSupport(file);

const isPrismaClient = (one: Import) =>
  one.target === null
    ? packageOf(one.specifier) === "@prisma/client" || one.specifier.startsWith("@prisma/adapter-") || one.specifier === "pglite-prisma-adapter"
    : one.target === "generated/prisma" || one.target.startsWith("generated/prisma/");

/**
 * Deliberate exceptions, each with why. The check below also fails when one is no longer used,
 * so the list cannot outlive its reason.
 */
const PRISMA_OUTSIDE_STORE = new Map([
  // The offline migration writer (README, "Writing a migration"): it diffs the committed
  // migrations against the schema with Prisma's schema engine and an in-memory PGlite as shadow
  // database, through Prisma's PGlite adapter. A developer tool, never loaded by the server.
  ["scripts/new-migration.ts", "pglite-prisma-adapter"],
]);

// Each rule returns the imports that break it.

/** Nothing outside lib/store imports the Prisma client. */
const prismaOutsideStore = (imports: Import[]) =>
  imports.filter((one) => isPrismaClient(one) && !under(one.file, "lib/store") && PRISMA_OUTSIDE_STORE.get(one.file) !== one.specifier);

// yaml: a pure formatter (lib/render/yaml.ts prints manifests with it), no I/O, no globals.
const PURE_PACKAGES = new Set(["zod", "yaml"]);

/** lib/domain and lib/render import only each other and pure packages: the browser loads them. */
const impureDomainOrRender = (imports: Import[]) =>
  imports.filter(
    (one) =>
      under(one.file, "lib/domain", "lib/render") &&
      !/\.test\.ts$/.test(one.file) &&
      !(one.target === null ? PURE_PACKAGES.has(packageOf(one.specifier)) && !isBuiltin(one.specifier) : under(one.target, "lib/domain", "lib/render")),
  );

/** The product reaches lib/sim in one place only, to start the embedded cluster. */
const simOutsideClusterStart = (imports: Import[]) =>
  imports.filter((one) => isProduct(one.file) && !under(one.file, "lib/sim") && under(one.target, "lib/sim") && one.file !== "lib/server/cluster.ts");

/**
 * Only lib/kube (and lib/sim, which serves the API) uses @kubernetes/client-node's code.
 * `import type` is the deliberate exception: lib/sandboxes and lib/disruption read the pods,
 * claims, nodes and events lib/kube hands them (V1Pod, V1Node, …). Type imports are erased at
 * compile time, so nothing outside lib/kube can reach the cluster through them.
 */
const kubeClientOutsideKube = (imports: Import[]) =>
  imports.filter((one) => isProduct(one.file) && !under(one.file, "lib/kube", "lib/sim") && packageOf(one.specifier) === "@kubernetes/client-node" && !one.typeOnly);

/** lib/identity proves who is asking and asks Kubernetes what they may do; it never acts, stores or serves. */
const identityBeyondItsLayer = (imports: Import[]) =>
  imports.filter((one) => isProduct(one.file) && under(one.file, "lib/identity") && under(one.target, "lib/store", "lib/sandboxes", "lib/server", "lib/events", "lib/disruption", "app"));

/** lib/client is the API as functions, loaded by the browser and the CLI: the endpoint table, zod and fetch, nothing of the server. */
const clientBeyondTheContract = (imports: Import[]) =>
  imports.filter(
    (one) => isProduct(one.file) && under(one.file, "lib/client") && !(one.target === null ? one.specifier === "zod" : under(one.target, "lib/client", "lib/domain")),
  );

/** The CLI reaches Berth through its API only: never the server's layers, the store or the cluster. */
const cliBeyondTheApi = (imports: Import[]) =>
  imports.filter((one) => isProduct(one.file) && under(one.file, "lib/cli") && one.target !== null && !under(one.target, "lib/cli", "lib/client", "lib/domain", "lib/render"));

/** The exemptions for tests above hold only while no product code loads what tests use. */
const productImportingTestSupport = (imports: Import[]) => imports.filter((one) => isProduct(one.file) && one.target !== null && isTestSupport(one.target));

describe("the import scan", () => {
  it("sees static and type imports, re-exports, import() and typeof import()", () => {
    const { imports } = importsOf(
      "lib/example.ts",
      [
        'import { a } from "./a.ts";',
        'import type { B } from "@kubernetes/client-node";',
        'import { type C } from "../generated/prisma/client.ts";',
        'export { d } from "@/lib/sim/index.ts";',
        'export type { E } from "zod";',
        'type F = typeof import("node:fs");',
        'const g = await import("../lib/store/index.ts");',
        "const h = await import(`pg`);",
      ].join("\n"),
    );
    expect(imports.map(({ line, specifier, typeOnly, target }) => ({ line, specifier, typeOnly, target }))).toEqual([
      { line: 1, specifier: "./a.ts", typeOnly: false, target: "lib/a.ts" },
      { line: 2, specifier: "@kubernetes/client-node", typeOnly: true, target: null },
      { line: 3, specifier: "../generated/prisma/client.ts", typeOnly: true, target: "generated/prisma/client.ts" },
      { line: 4, specifier: "@/lib/sim/index.ts", typeOnly: false, target: "lib/sim/index.ts" },
      { line: 5, specifier: "zod", typeOnly: true, target: null },
      { line: 6, specifier: "node:fs", typeOnly: true, target: null },
      { line: 7, specifier: "../lib/store/index.ts", typeOnly: false, target: "lib/store/index.ts" },
      { line: 8, specifier: "pg", typeOnly: false, target: null },
    ]);
  });

  it("refuses what it cannot follow: a file that does not parse, an import() of a computed name", () => {
    expect([importsOf("lib/broken.ts", "import { from 'x';").problems.length > 0, importsOf("lib/computed.ts", "await import(name);").problems]).toEqual([
      true,
      ["lib/computed.ts:1: import() of a computed module name, which this check cannot follow"],
    ]);
  });

  it("reads every source file of the project, and follows every import but the computed ones listed", () => {
    const problems = scanned.flatMap((one) => one.problems);
    const computedIn = (file: string) => problems.filter((problem) => problem.startsWith(`${file}:`) && problem.includes("computed module name")).length;
    expect({
      problems: problems.filter((problem) => !COMPUTED_IMPORTS.has(problem.split(":")[0]!)),
      listedComputedImports: [...COMPUTED_IMPORTS].map(([file]) => [file, computedIn(file)]),
      scannedTheServerStart: allImports.some((one) => one.file === "lib/server/cluster.ts" && one.target === "lib/sim/index.ts"),
    }).toEqual({
      problems: [],
      listedComputedImports: [...COMPUTED_IMPORTS],
      scannedTheServerStart: true,
    });
  });

  it.each([
    { rule: "Prisma outside lib/store", check: prismaOutsideStore, file: "app/api/v1/x/route.ts", line: 'import { PrismaClient } from "@/generated/prisma/client.ts";' },
    { rule: "Prisma outside lib/store", check: prismaOutsideStore, file: "lib/sandboxes/x.ts", line: 'import type { Prisma } from "@prisma/client";' },
    { rule: "Prisma outside lib/store", check: prismaOutsideStore, file: "lib/server/x.ts", line: 'import { PrismaPg } from "@prisma/adapter-pg";' },
    { rule: "impure lib/domain", check: impureDomainOrRender, file: "lib/domain/x.ts", line: 'import { readFileSync } from "node:fs";' },
    { rule: "impure lib/domain", check: impureDomainOrRender, file: "lib/domain/x.ts", line: 'import type { Store } from "../store/index.ts";' },
    { rule: "impure lib/render", check: impureDomainOrRender, file: "lib/render/x.ts", line: 'import { headers } from "next/headers";' },
    { rule: "impure lib/render", check: impureDomainOrRender, file: "lib/render/x.ts", line: 'import type { V1Pod } from "@kubernetes/client-node";' },
    { rule: "lib/sim outside cluster.ts", check: simOutsideClusterStart, file: "app/api/v1/simulator/route.ts", line: 'import { startSimulatedCluster } from "@/lib/sim/index.ts";' },
    { rule: "lib/sim outside cluster.ts", check: simOutsideClusterStart, file: "lib/server/simulator-state.ts", line: 'const sim = await import("../sim/index.ts");' },
    { rule: "client-node outside lib/kube", check: kubeClientOutsideKube, file: "lib/sandboxes/x.ts", line: 'import { CoreV1Api } from "@kubernetes/client-node";' },
    { rule: "test support in the product", check: productImportingTestSupport, file: "lib/server/x.ts", line: 'import { eventually } from "../sim/testing/eventually.ts";' },
    { rule: "lib/identity reaching the store", check: identityBeyondItsLayer, file: "lib/identity/x.ts", line: 'import type { Store } from "../store/index.ts";' },
    { rule: "lib/client reaching the server", check: clientBeyondTheContract, file: "lib/client/x.ts", line: 'import { getRuntime } from "../server/runtime.ts";' },
    { rule: "lib/client loading a Node package", check: clientBeyondTheContract, file: "lib/client/x.ts", line: 'import { request } from "undici";' },
    { rule: "the CLI reaching the store", check: cliBeyondTheApi, file: "lib/cli/x.ts", line: 'import { openStore } from "../store/index.ts";' },
  ])("catches $rule: $line in $file", ({ check, file, line }) => {
    const specifier = /["'`](.+?)["'`]/.exec(line)![1]!;
    const typeOnly = line.startsWith("import type ") ? "type " : "";
    expect(check(importsOf(file, line).imports).map(describeImport)).toEqual([`${file}:1 imports ${typeOnly}"${specifier}"`]);
  });

  it.each([
    { rule: "a type-only client-node import in lib/disruption", check: kubeClientOutsideKube, file: "lib/disruption/x.ts", line: 'import type { V1Pod } from "@kubernetes/client-node";' },
    { rule: "a test starting the simulated cluster", check: simOutsideClusterStart, file: "lib/sandboxes/x.test.ts", line: 'import { startSimulatedCluster } from "../sim/index.ts";' },
    { rule: "lib/render using lib/domain and yaml", check: impureDomainOrRender, file: "lib/render/x.ts", line: 'import { stringify } from "yaml"; import type { SandboxSpec } from "../domain/sandbox-spec.ts";' },
  ])("lets $rule pass", ({ check, file, line }) => {
    expect(check(importsOf(file, line).imports)).toEqual([]);
  });
});

describe("the layering", () => {
  it("nothing outside lib/store imports the Prisma client (generated/prisma, @prisma/client, its adapters)", () => {
    expect(prismaOutsideStore(allImports).map(describeImport)).toEqual([]);
  });

  it("every exception to the Prisma rule is still used", () => {
    const used = [...PRISMA_OUTSIDE_STORE].filter(([file, specifier]) => allImports.some((one) => one.file === file && one.specifier === specifier));
    expect(used).toEqual([...PRISMA_OUTSIDE_STORE]);
  });

  it("lib/domain and lib/render import only each other, zod and yaml, so the browser can load them", () => {
    expect(impureDomainOrRender(allImports).map(describeImport)).toEqual([]);
  });

  it("the product imports lib/sim only in lib/server/cluster.ts, to start the embedded cluster", () => {
    expect(simOutsideClusterStart(allImports).map(describeImport)).toEqual([]);
  });

  it("only lib/kube calls Kubernetes through @kubernetes/client-node; elsewhere in the product only its object types are imported", () => {
    expect(kubeClientOutsideKube(allImports).map(describeImport)).toEqual([]);
  });

  it("lib/identity imports only lib/domain, lib/kube, lib/config and lib/platform", () => {
    expect(identityBeyondItsLayer(allImports).map(describeImport)).toEqual([]);
  });

  it("lib/client imports only lib/domain and zod, so the browser and the CLI load the same client", () => {
    expect(clientBeyondTheContract(allImports).map(describeImport)).toEqual([]);
  });

  it("the CLI imports only lib/client, lib/domain and lib/render of Berth: it reaches Berth through the API", () => {
    expect(cliBeyondTheApi(allImports).map(describeImport)).toEqual([]);
  });

  it("the product never imports test support, so the exemptions for tests cannot reach it", () => {
    expect(productImportingTestSupport(allImports).map(describeImport)).toEqual([]);
  });
});
