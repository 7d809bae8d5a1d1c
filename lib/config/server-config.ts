import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { CLUSTER_MODES, EMBEDDED_BERTH_NAMESPACE, type ClusterMode } from "../domain/cluster-mode.ts";
import { gatewayDefaultsSchema, type GatewayDefaults } from "../domain/gateway-defaults.ts";
import { ALLOWED_GATEWAY_VALUES } from "../domain/gateway-settings.ts";
import type { StoreLocation } from "../store/open-store.ts";
import { resolveAuth, type AuthConfig } from "./auth-config.ts";
import { LIMIT_KEYS, resolveLimits, type LimitsConfig } from "./limits-config.ts";
import { resolveSimulator, type SimulatorConfig } from "./simulator-config.ts";
import { environmentVariableFor, GATEWAY_KEYS, helmValueFor, type GatewayKey } from "./gateway-keys.ts";

// The server's configuration, read once at start from the environment and an optional file
// (BERTH_CONFIG_FILE, YAML or JSON, shaped like the Helm values: `server: {workspaceBackend: …}`).
// Precedence: environment > file > built-in default. Anything invalid stops the start with a
// message naming the key, the value and what is allowed.

export { CLUSTER_MODES, type ClusterMode };

export type ConfigSource = "default" | "environment" | "file";

export interface ServerConfig {
  gateway: GatewayDefaults;
  /** Where each gateway default came from, for the Settings page. */
  sources: Record<GatewayKey, ConfigSource>;
  store: StoreLocation;
  dataDir: string;
  cluster: { mode: ClusterMode; kubeconfig: string | null };
  simulator: SimulatorConfig;
  auth: AuthConfig;
  /** The most a request or a sandbox may ask for. */
  limits: LimitsConfig;
  /** The namespaces Berth manages: it watches, adopts and offers sandboxes there only. */
  namespaces: ManagedNamespaces;
  /**
   * The Lease Berth's replicas elect their one writer on; null with the embedded store, which
   * one process alone may open (it is always the writer).
   */
  leaderElection: LeaderElectionConfig | null;
  /** The image of the helper pods that read a claim no running pod mounts, and that copy a workspace to a portable class (BERTH_VOLUME_READER_IMAGE): it needs sh, stat, cat and cp. */
  volumeReaderImage: string;
  configFile: string | null;
}

/** busybox has the three programs a volume reader runs, in 2 MB. */
export const DEFAULT_VOLUME_READER_IMAGE = "busybox:1.37";

export interface LeaderElectionConfig {
  namespace: string;
  leaseName: string;
  /** client-go's defaults: 15 s, 10 s and 2 s; lease > renew deadline > 1.2 × retry. */
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

const ELECTION_TIMINGS = [
  { variable: "BERTH_LEADER_ELECTION_LEASE_DURATION_SECONDS", key: "leaseDurationMs", defaultSeconds: 15 },
  { variable: "BERTH_LEADER_ELECTION_RENEW_DEADLINE_SECONDS", key: "renewDeadlineMs", defaultSeconds: 10 },
  { variable: "BERTH_LEADER_ELECTION_RETRY_PERIOD_SECONDS", key: "retryPeriodMs", defaultSeconds: 2 },
] as const;

/** Namespaces carrying Berth's label (`<labelPrefix>/managed: "true"`), or a fixed list. */
export type ManagedNamespaces = { kind: "labelled"; label: string } | { kind: "listed"; names: string[] };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Berth cannot start: its configuration is invalid.\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const IN_CLUSTER_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token";
const IN_CLUSTER_NAMESPACE = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";

export interface ConfigInputs {
  env: Record<string, string | undefined>;
  cwd: string;
  readFile: (file: string) => string;
  fileExists: (file: string) => boolean;
}

const fileSchema = z.strictObject({
  server: z.strictObject(Object.fromEntries(GATEWAY_KEYS.map((key) => [key, z.unknown()]))).partial().optional(),
  limits: z.strictObject(Object.fromEntries(LIMIT_KEYS.map((key) => [key, z.unknown()]))).partial().optional(),
});

type ConfigFile = { server: Record<string, unknown>; limits: Record<string, unknown> };

function readConfigFile(file: string, inputs: ConfigInputs, problems: string[]): ConfigFile {
  const nothing = { server: {}, limits: {} };
  let parsed: unknown;
  try {
    parsed = parseYaml(inputs.readFile(file));
  } catch (error) {
    problems.push(`BERTH_CONFIG_FILE=${file}: cannot be read as YAML or JSON: ${(error as Error).message}`);
    return nothing;
  }
  const result = fileSchema.safeParse(parsed ?? {});
  if (!result.success) {
    for (const issue of result.error.issues) {
      const where = issue.path.length ? issue.path.join(".") : "(top level)";
      const allowed = issue.path[0] === "server" ? GATEWAY_KEYS.map(helmValueFor).join(", ") : issue.path[0] === "limits" ? LIMIT_KEYS.map((key) => `limits.${key}`).join(", ") : "server, limits";
      problems.push(`BERTH_CONFIG_FILE=${file}: ${where}: ${issue.message}; allowed keys: ${allowed}`);
    }
    return nothing;
  }
  return { server: result.data.server ?? {}, limits: result.data.limits ?? {} };
}

function resolveGateway(inputs: ConfigInputs, fromFile: Record<string, unknown>, file: string | null, problems: string[]) {
  const raw: Record<string, unknown> = {};
  const sources = {} as Record<GatewayKey, ConfigSource>;
  for (const key of GATEWAY_KEYS) {
    const variable = environmentVariableFor(key);
    if (inputs.env[variable] !== undefined) {
      raw[key] = inputs.env[variable];
      sources[key] = "environment";
    } else if (fromFile[key] !== undefined) {
      raw[key] = fromFile[key];
      sources[key] = "file";
    } else {
      sources[key] = "default";
    }
  }
  const result = gatewayDefaultsSchema.safeParse(raw);
  if (result.success) return { gateway: result.data, sources };
  for (const issue of result.error.issues) {
    const key = issue.path[0] as GatewayKey;
    const where = sources[key] === "file" ? `${helmValueFor(key)} in ${file}` : environmentVariableFor(key);
    problems.push(`${where} = ${JSON.stringify(raw[key])}: ${issue.message}. Allowed: ${ALLOWED_GATEWAY_VALUES[key]}.`);
  }
  return null;
}

function resolveVolumeReaderImage(inputs: ConfigInputs, problems: string[]): string | null {
  const image = inputs.env.BERTH_VOLUME_READER_IMAGE ?? DEFAULT_VOLUME_READER_IMAGE;
  if (/^[^\s]+$/.test(image) && image.length <= 512) return image;
  problems.push(`BERTH_VOLUME_READER_IMAGE = ${JSON.stringify(image)}: not an image reference. Allowed: a reference such as ${DEFAULT_VOLUME_READER_IMAGE} or registry.example.com/tools/busybox@sha256:…, with sh, stat, cat and cp.`);
  return null;
}

function resolveStore(inputs: ConfigInputs, dataDir: string, problems: string[]): StoreLocation | null {
  const databaseUrl = inputs.env.DATABASE_URL;
  if (databaseUrl === undefined || databaseUrl === "") return { kind: "pglite", dataDir };
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return { kind: "postgresql", databaseUrl };
  problems.push(
    `DATABASE_URL = ${JSON.stringify(databaseUrl.replace(/:[^:@/]*@/, ":***@"))}: not a PostgreSQL URL. ` +
      `Allowed: postgres://user:password@host:5432/database, or unset it to use the embedded store in BERTH_DATA_DIR.`,
  );
  return null;
}

function resolveCluster(inputs: ConfigInputs, problems: string[]): ServerConfig["cluster"] | null {
  const requested = inputs.env.BERTH_CLUSTER;
  const kubeconfig = inputs.env.KUBECONFIG || null;
  const inCluster = Boolean(inputs.env.KUBERNETES_SERVICE_HOST) && inputs.fileExists(IN_CLUSTER_TOKEN);
  let mode: ClusterMode;
  if (requested !== undefined && requested !== "") {
    if (!(CLUSTER_MODES as readonly string[]).includes(requested)) {
      problems.push(`BERTH_CLUSTER = ${JSON.stringify(requested)}: unknown cluster mode. Allowed: ${CLUSTER_MODES.join(", ")}.`);
      return null;
    }
    mode = requested as ClusterMode;
  } else {
    // A real cluster when one is configured, otherwise the embedded one.
    mode = inCluster ? "in-cluster" : kubeconfig ? "kubeconfig" : "embedded";
  }
  if (mode === "embedded") return { mode, kubeconfig: null };
  if (mode === "in-cluster") {
    // client-node would otherwise go on to https://undefined:undefined.
    const missing = [
      ...(inputs.env.KUBERNETES_SERVICE_HOST ? [] : ["KUBERNETES_SERVICE_HOST is not set"]),
      ...(inputs.env.KUBERNETES_SERVICE_PORT ? [] : ["KUBERNETES_SERVICE_PORT is not set"]),
      ...(inputs.fileExists(IN_CLUSTER_TOKEN) ? [] : [`there is no service account token at ${IN_CLUSTER_TOKEN}`]),
    ];
    if (missing.length === 0) return { mode, kubeconfig: null };
    problems.push(`BERTH_CLUSTER = "in-cluster": this is not a pod with a service account (${missing.join("; ")}). Allowed: Berth in a pod whose service account token is mounted (the Helm chart does so), or BERTH_CLUSTER=kubeconfig with KUBECONFIG naming a kubeconfig file.`);
    return null;
  }
  // client-node would otherwise fall back to http://localhost:8080 without a word.
  const fallback = inputs.env.HOME ? path.join(inputs.env.HOME, ".kube", "config") : null;
  const file = kubeconfig ?? (fallback && inputs.fileExists(fallback) ? fallback : null);
  if (!file) {
    problems.push(`BERTH_CLUSTER = "kubeconfig": there is no kubeconfig to read (KUBECONFIG is not set, and ${fallback ?? "~/.kube/config"} does not exist). Allowed: KUBECONFIG naming a kubeconfig file, or BERTH_CLUSTER=embedded for the embedded cluster.`);
    return null;
  }
  if (!inputs.fileExists(file)) {
    problems.push(`KUBECONFIG = ${JSON.stringify(file)}: no such file. Allowed: the path of one kubeconfig file, or unset it (and BERTH_CLUSTER) for the embedded cluster.`);
    return null;
  }
  return { mode, kubeconfig: file };
}

const NAMESPACE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function resolveNamespaces(env: Record<string, string | undefined>, labelPrefix: string, problems: string[]): ManagedNamespaces | null {
  const given = env.BERTH_NAMESPACES;
  if (!given) return { kind: "labelled", label: `${labelPrefix}/managed` };
  const names = [...new Set(given.split(",").map((name) => name.trim()).filter(Boolean))];
  const wrong = names.filter((name) => !NAMESPACE_NAME.test(name) || name.length > 63);
  if (names.length === 0 || wrong.length > 0) {
    problems.push(`BERTH_NAMESPACES = ${JSON.stringify(given)}: ${wrong.length > 0 ? `${wrong.join(", ")} is not a namespace name` : "no namespace named"}. Allowed: namespace names separated by commas, or unset for the namespaces labelled ${labelPrefix}/managed=true.`);
    return null;
  }
  return { kind: "listed", names };
}

/**
 * With PostgreSQL, replicas elect a leader on a Lease: in BERTH_LEADER_ELECTION_NAMESPACE, else
 * the pod's own namespace (POD_NAMESPACE, or its service account's), else Berth's namespace in
 * the embedded cluster, else "default".
 */
function resolveLeaderElection(inputs: ConfigInputs, store: StoreLocation, cluster: ServerConfig["cluster"], problems: string[]): LeaderElectionConfig | null | undefined {
  if (store.kind === "pglite") return null;
  const { env } = inputs;
  const podNamespace = env.POD_NAMESPACE || (inputs.fileExists(IN_CLUSTER_NAMESPACE) ? inputs.readFile(IN_CLUSTER_NAMESPACE).trim() : "");
  const fallback = cluster.mode === "embedded" ? EMBEDDED_BERTH_NAMESPACE : "default";
  const given = { BERTH_LEADER_ELECTION_NAMESPACE: env.BERTH_LEADER_ELECTION_NAMESPACE || podNamespace || fallback, BERTH_LEADER_ELECTION_LEASE: env.BERTH_LEADER_ELECTION_LEASE || "berth-leader" };
  let valid = true;
  for (const [variable, value] of Object.entries(given)) {
    if (NAMESPACE_NAME.test(value) && value.length <= 63) continue;
    problems.push(`${variable} = ${JSON.stringify(value)}: not a Kubernetes name. Allowed: lower-case letters, digits and '-', at most 63, or unset.`);
    valid = false;
  }
  const timings = { leaseDurationMs: 0, renewDeadlineMs: 0, retryPeriodMs: 0 };
  for (const { variable, key, defaultSeconds } of ELECTION_TIMINGS) {
    const text = env[variable];
    const seconds = text === undefined || text === "" ? defaultSeconds : Number(text);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
      problems.push(`${variable} = ${JSON.stringify(text)}: not a number of seconds. Allowed: a number above 0 and at most 3600, or unset for ${defaultSeconds}.`);
      valid = false;
    }
    timings[key] = seconds * 1000;
  }
  if (valid && !(timings.leaseDurationMs > timings.renewDeadlineMs && timings.renewDeadlineMs > 1.2 * timings.retryPeriodMs)) {
    problems.push(`BERTH_LEADER_ELECTION_RENEW_DEADLINE_SECONDS = ${JSON.stringify(String(timings.renewDeadlineMs / 1000))}: it must lie between the lease duration (${timings.leaseDurationMs / 1000} s) and 1.2 × the retry period (${(1.2 * timings.retryPeriodMs) / 1000} s), or a leader could act after its lease ran out. Allowed: lease duration > renew deadline > 1.2 × retry period.`);
    valid = false;
  }
  return valid ? { namespace: given.BERTH_LEADER_ELECTION_NAMESPACE, leaseName: given.BERTH_LEADER_ELECTION_LEASE, ...timings } : undefined;
}

/** Reads and validates the whole configuration; throws ConfigError listing every problem at once. */
export function loadServerConfig(inputs: ConfigInputs): ServerConfig {
  const problems: string[] = [];
  // These paths exist only at run time. `turbopackIgnore` keeps Next.js's file tracing from
  // guessing at them: without it the standalone output got lib/config/*.ts and every file under
  // scripts/cluster/.
  const configFile = inputs.env.BERTH_CONFIG_FILE ? path.resolve(/* turbopackIgnore: true */ inputs.cwd, inputs.env.BERTH_CONFIG_FILE) : null;
  if (configFile && !inputs.fileExists(configFile)) {
    problems.push(`BERTH_CONFIG_FILE = ${JSON.stringify(inputs.env.BERTH_CONFIG_FILE)}: no such file. Allowed: the path of a YAML or JSON file, or unset.`);
  }
  const fromFile = configFile && inputs.fileExists(configFile) ? readConfigFile(configFile, inputs, problems) : { server: {}, limits: {} };
  const dataDir = path.resolve(/* turbopackIgnore: true */ inputs.cwd, inputs.env.BERTH_DATA_DIR || ".berth");
  const gateway = resolveGateway(inputs, fromFile.server, configFile, problems);
  const limits = resolveLimits(inputs.env, fromFile.limits, configFile, problems);
  const store = resolveStore(inputs, dataDir, problems);
  const cluster = resolveCluster(inputs, problems);
  const simulator = resolveSimulator(inputs.env, problems);
  const auth = cluster ? resolveAuth(inputs.env, cluster.mode, problems) : null;
  const namespaces = gateway ? resolveNamespaces(inputs.env, gateway.gateway.labelPrefix, problems) : null;
  const leaderElection = store && cluster ? resolveLeaderElection(inputs, store, cluster, problems) : undefined;
  if (problems.length > 0 || !gateway || !limits || !store || !cluster || !simulator || !auth || !namespaces || leaderElection === undefined) throw new ConfigError(problems);
  const volumeReaderImage = resolveVolumeReaderImage(inputs, problems);
  if (!volumeReaderImage) throw new ConfigError(problems);
  return { ...gateway, store, dataDir, cluster, simulator, auth, limits, namespaces, leaderElection, volumeReaderImage, configFile };
}

/** The configuration of this process, from its real environment and file system. */
export function loadServerConfigFromProcess(): ServerConfig {
  return loadServerConfig({
    env: process.env,
    cwd: process.cwd(),
    readFile: (file) => readFileSync(file, "utf8"),
    fileExists: existsSync,
  });
}
