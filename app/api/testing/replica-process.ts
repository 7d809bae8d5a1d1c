// A Berth replica as a process of its own, run by replicas.test.ts: the runtime (store, cluster,
// identity, reconciler, leader election, live timeline) as a server starts it, configured by the
// environment, and Berth's HTTP API answered by the app's own route modules on a loopback port.
// It prints what a test needs to follow it, a line each:
//   http <port>                 where its API listens
//   replica <name>              how the store names it (who runs a maintenance run)
//   ready                       its reconciler has synced
//   leading <term> | follows <leader>
import { stampPeerAddresses } from "@/lib/platform/peer-address.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { eventually } from "@/lib/sim/testing/eventually.ts";
import { serveRouteModules } from "./route-server.ts";

stampPeerAddresses();
const runtime = await getRuntime();
const server = await serveRouteModules(new URL(runtime.config.auth.publicUrl));
console.log(`http ${new URL(server.url).port}`);
console.log(`replica ${runtime.replica}`);

const tell = () => {
  const { leading, holder } = runtime.leadership.state();
  console.log(leading ? `leading ${leading.term}` : `follows ${holder ?? "nobody"}`);
};
runtime.leadership.onChange(tell);
await eventually(() => {
  if (!runtime.reconciler.current()) throw new Error("not synced yet");
}, { timeoutMs: 60_000, intervalMs: 50 });
console.log("ready");
tell();
