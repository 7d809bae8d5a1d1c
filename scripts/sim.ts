// `npm run sim`: the simulated Kubernetes cluster on its own, for kubectl and for rehearsing
// disruptions; `npm run sim -- <command>` drives the fault API of a running one.
//
//   npm run sim                                  start; state in $BERTH_DATA_DIR/cluster (default ./.berth/cluster)
//   npm run sim -- cordon|uncordon|lose|restore <node>
//   npm run sim -- drain <node> [--delete-emptydir-data] [--force] [--timeout=<seconds>]
//   npm run sim -- kubelet-evict <namespace>/<pod> [--resource=memory|ephemeral-storage|pid]
//   npm run sim -- preempt|delete <namespace>/<pod> [--force]
//   npm run sim -- fail-provisioning <storage-class> <message> | --clear
//   npm run sim -- api-fault '<json>' | --clear
//   npm run sim -- drop-watches | compact | state
//
// Environment: BERTH_DATA_DIR, BERTH_SIM_PORT (default: any free port), BERTH_SIM_CLOCK_SCALE
// (simulated seconds per real second, default 1), BERTH_SIM_WORKERS (default 3),
// BERTH_SIM_DEFAULT_STORAGE_CLASS (local-path | portable | none; default local-path).
import { readFileSync } from "node:fs";
import path from "node:path";
import { Agent, fetch } from "undici";
import { ConfigError, loadServerConfigFromProcess } from "../lib/config/index.ts";
import { kubeconfigPath, startSimulatedCluster } from "../lib/sim/index.ts";

function loadConfig() {
  try {
    return loadServerConfigFromProcess();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

const config = loadConfig();
const dataDir = path.join(config.dataDir, "cluster");

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

interface WrittenKubeconfig {
  clusters: { cluster: { server: string; "certificate-authority-data"?: string } }[];
  users: { user: { token?: string } }[];
}

function runningCluster(): { server: string; token: string | undefined; ca: string | undefined } {
  try {
    const config = JSON.parse(readFileSync(kubeconfigPath(dataDir), "utf8")) as WrittenKubeconfig;
    const cluster = config.clusters[0]!.cluster;
    const ca = cluster["certificate-authority-data"];
    return { server: cluster.server, token: config.users[0]?.user.token, ca: ca ? Buffer.from(ca, "base64").toString("utf8") : undefined };
  } catch {
    return fail(`No simulated cluster has run with data in ${dataDir}: start one with \`npm run sim\`.`);
  }
}

async function call(method: string, pathname: string, body?: unknown): Promise<void> {
  const { server, token, ca } = runningCluster();
  let response: Awaited<ReturnType<typeof fetch>>;
  try {
    response = await fetch(`${server}/sim/v1/${pathname}`, {
      method,
      // The cluster's own certificate, as kubectl trusts it from the same kubeconfig.
      dispatcher: new Agent({ connect: { ca } }),
      // The fault API is the cluster admin's: the kubeconfig the cluster wrote carries the token.
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    fail(`The simulated cluster at ${server} does not answer: is \`npm run sim\` (or the console) running?`);
  }
  const text = await response.text();
  console.log(text);
  if (!response.ok) process.exit(1);
}

function podPath(reference: string | undefined): string {
  const [namespace, name] = (reference ?? "").split("/");
  if (!namespace || !name) fail("name the pod as <namespace>/<pod>");
  return `namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`;
}

async function start(): Promise<void> {
  const cluster = await startSimulatedCluster({ dataDir, ...config.simulator });
  console.log(`Simulated cluster serving at ${cluster.serverUrl}`);
  console.log(`kubeconfig: ${kubeconfigPath(dataDir)}   (export KUBECONFIG=${kubeconfigPath(dataDir)})`);
  const stop = async () => {
    await cluster.stop();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop());
  process.once("SIGTERM", () => void stop());
}

const [command, ...args] = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];

switch (command) {
  case undefined:
  case "start":
    await start();
    break;
  case "cordon":
  case "uncordon":
  case "lose":
  case "restore":
    await call("POST", `nodes/${encodeURIComponent(args[0] ?? fail(`usage: npm run sim -- ${command} <node>`))}/${command}`);
    break;
  case "drain":
    await call("POST", `nodes/${encodeURIComponent(args[0] ?? fail("usage: npm run sim -- drain <node>"))}/drain`, {
      deleteEmptyDirData: flag("delete-emptydir-data"),
      force: flag("force"),
      ...(option("timeout") ? { timeoutSeconds: Number(option("timeout")) } : {}),
    });
    break;
  case "kubelet-evict":
    // The resource under pressure names the eviction's message (the fault API's default: memory).
    await call("POST", `${podPath(args[0])}/kubelet-evict`, option("resource") ? { resource: option("resource") } : {});
    break;
  case "preempt":
    await call("POST", `${podPath(args[0])}/preempt`, {});
    break;
  case "delete":
    await call("POST", `${podPath(args[0])}/delete`, { force: flag("force") });
    break;
  case "fail-provisioning":
    await call("POST", `storageclasses/${encodeURIComponent(args[0] ?? fail("usage: npm run sim -- fail-provisioning <class> <message>|--clear"))}/fail-provisioning`, {
      message: flag("clear") ? null : args.slice(1).join(" ") || "simulated provisioning failure",
    });
    break;
  case "api-fault":
    if (flag("clear")) await call("DELETE", "api-faults");
    else await call("POST", "api-faults", JSON.parse(args[0] ?? fail("usage: npm run sim -- api-fault '{\"verb\":\"list\",\"resource\":\"pods\",\"code\":500,\"count\":1}'")));
    break;
  case "drop-watches":
    await call("POST", "watches/drop");
    break;
  case "compact":
    await call("POST", "compact");
    break;
  case "state":
    await call("GET", "state");
    break;
  default:
    fail(`unknown command ${command}; see the top of scripts/sim.ts`);
}
