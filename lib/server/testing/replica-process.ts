// A Berth replica without its HTTP front, run as a process of its own by replicas.test.ts: the
// runtime (store, cluster, identity, reconciler, leader election, live timeline) as a server
// starts it, configured by the environment. It prints what a test needs to follow it, a line each:
//   ready                       its reconciler has synced
//   leading <term> | follows <leader>
//   event <id> <reason>         each event its live timeline publishes, in order
import { subscribeToTimeline } from "../../events/event-bus.ts";
import { eventually } from "../../sim/testing/eventually.ts";
import { getRuntime } from "../runtime.ts";

const runtime = await getRuntime();
subscribeToTimeline((event) => console.log(`event ${event.id} ${event.reason}`));
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
