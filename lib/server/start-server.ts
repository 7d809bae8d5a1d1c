import { discoverSandboxApi } from "../kube/cluster-connection.ts";
import { logOf } from "../platform/logger.ts";
import { unsupportedNodeRuntime } from "../platform/node-runtime.ts";
import { stampPeerAddresses } from "../platform/peer-address.ts";
import { admitRequestsInTurn } from "../platform/request-admission.ts";
import { healthProbeAnswerer } from "./health-probe.ts";
import { getRuntime } from "./runtime.ts";

/**
 * Starts the runtime when the server process starts, so a bad configuration or an unusable
 * store stops the server at once, with a message, instead of failing the first request.
 */
export async function startServer(): Promise<void> {
  const runtimeProblem = unsupportedNodeRuntime(process.version);
  if (runtimeProblem) {
    console.error(`\n${runtimeProblem}\n`);
    process.exit(1);
  }
  // Before the first request: requests enter a few per turn of the event loop, health probes at
  // once (answered before Next.js once the runtime is up); and (wrapped around that, so as each
  // arrives) proxy sign-in and none mode read the socket's addresses.
  const runtime = getRuntime();
  admitRequestsInTurn({ answerFirst: healthProbeAnswerer(runtime) });
  stampPeerAddresses();
  try {
    const { config, store, cluster, startupMs } = await runtime;
    const signIn = config.auth.mode === "oidc" && config.auth.oidc?.issuer === "embedded" ? "oidc through the embedded demo provider" : config.auth.mode;
    const where = config.store.kind === "pglite" ? `embedded PGlite in ${config.store.dataDir}` : "PostgreSQL";
    const { mode, server } = cluster.connection;
    const log = logOf("server");
    log.info(
      { startupMs, store: config.store.kind, migrationsApplied: store.migrations.applied.length, cluster: mode, clusterServer: server, signIn: config.auth.mode, publicUrl: config.auth.publicUrl },
      `Berth ready in ${startupMs} ms: store ${where} (${store.migrations.applied.length} migrations applied), cluster ${mode} at ${server}; sign-in ${signIn}; reached at ${config.auth.publicUrl}`,
    );
    const discovery = await discoverSandboxApi(cluster.connection);
    if (!discovery.ok) log.warn(discovery.message);
    else for (const finding of discovery.install.findings) log[finding.severity === "warning" ? "warn" : "info"]({ finding: finding.code }, finding.message);
    for (const name of store.migrations.changed) log.warn({ migration: name }, `migration ${name} was changed after it was applied; the change was not run`);
    if (store.migrations.unknown.length > 0) {
      log.warn(
        { migrations: store.migrations.unknown },
        `a newer Berth migrated this store (migrations this version does not have: ${store.migrations.unknown.join(", ")}). Migrations go forward only: to go back to this version, restore the backup taken before the upgrade (docs/operations.md)`,
      );
    }
  } catch (error) {
    console.error(`\n${(error as Error).message}\n`);
    process.exit(1);
  }
}
