import { createInterface } from "node:readline/promises";
import { MultiBar, Presets } from "cli-progress";
import { Option, type Command } from "commander";
import type { MaintenanceRun } from "../../domain/maintenance.ts";
import type { BerthClient } from "../../client/berth-client.ts";
import { EXIT } from "../cli-errors.ts";
import { coalesced } from "../coalesced.ts";
import { changedSteps, finished, stepValue, STEPS_TO_DONE } from "../drain-progress.ts";
import { dropNotice, startFollowing } from "../event-stream.ts";
import type { Io } from "../io.ts";
import { serialized, table } from "../printers.ts";
import { openSession, type GlobalOptions } from "../session.ts";

// berth drain NODE --preview: what draining it would do to each pod, and why.
// berth drain NODE: the maintenance run — checkpoints, budgets relaxed, evictions, replacements
// — followed live, a progress bar per sandbox (a line per step when not on a terminal). Ctrl-C
// asks whether to cancel the run; the run itself goes on in Berth either way until it is.

async function preview(client: BerthClient, node: string, output: string | undefined, io: Io): Promise<void> {
  const answer = await client.previewMaintenance({ params: { name: node } });
  if (output === "json" || output === "yaml") return io.out(serialized(answer, output));
  io.out(`Node ${answer.node}${answer.cordoned ? " (cordoned)" : ""}; pods can go to: ${answer.otherSchedulableNodes.join(", ") || "no other schedulable node"}\n`);
  if (answer.pods.length === 0) return io.out("No pods to evict.\n");
  const rows = answer.pods.map((pod) => [pod.namespace, pod.pod, pod.sandbox?.name ?? "<none>", pod.outcome, pod.checkpointedFirst ? "yes" : "no", pod.message]);
  io.out(`${table(["NAMESPACE", "POD", "SANDBOX", "OUTCOME", "CHECKPOINT FIRST", "WHY"], rows)}\n`);
}

/** Shows a run's progress: bars on a terminal, a line per changed step elsewhere. */
function progressView(io: Io) {
  let bars: MultiBar | null = io.interactive ? new MultiBar({ format: " {name} [{bar}] {step} {message}", hideCursor: true, clearOnComplete: false, stream: process.stderr }, Presets.shades_classic) : null;
  const barOf = new Map<string, ReturnType<MultiBar["create"]>>();
  let last: MaintenanceRun | null = null;
  return {
    show(run: MaintenanceRun) {
      for (const sandbox of changedSteps(last, run)) {
        const payload = { name: `${sandbox.namespace}/${sandbox.name}`, step: sandbox.step, message: sandbox.message };
        if (!bars) {
          io.out(`${payload.name}\t${payload.step}\t${payload.message}\n`);
          continue;
        }
        const bar = barOf.get(sandbox.sandboxId) ?? bars.create(STEPS_TO_DONE, 0, payload);
        barOf.set(sandbox.sandboxId, bar);
        bar.update(stepValue(sandbox), payload);
      }
      last = run;
    },
    /** Stops drawing bars (before a question, or at the end); later steps print as lines. */
    stop() {
      bars?.stop();
      bars = null;
    },
  };
}

async function askToCancel(io: Io): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question("Cancel the maintenance run? Sandboxes already evicted stay where they went. [y/N] ");
    return /^y(es)?$/i.test(answer.trim());
  } catch {
    return false;
  } finally {
    prompt.close();
  }
}

async function run(client: BerthClient, node: string, parallelism: number | undefined, io: Io): Promise<number> {
  const view = progressView(io);
  let current: MaintenanceRun | null = null;
  let settle!: (run: MaintenanceRun) => void;
  const ended = new Promise<MaintenanceRun>((resolve) => (settle = resolve));
  const stop = new AbortController();
  const refresh = coalesced(
    async () => {
      if (!current) return;
      current = await client.getMaintenance({ params: { id: current.id } });
      view.show(current);
      if (finished(current)) settle(current);
    },
    (error) => io.err(`warning: reading the run again failed: ${error instanceof Error ? error.message : String(error)}\n`),
  );
  // Followed from before the run starts, so none of its steps is missed.
  const { done } = await startFollowing(client, { signal: stop.signal, onEvent: refresh.request, onReload: refresh.request, onDrop: (from) => (io.err(dropNotice(from)), refresh.request()) });
  current = await client.startMaintenance({ params: { name: node }, body: parallelism ? { parallelism } : {} });
  io.err(`Maintenance run ${current.id} on ${node} started.\n`);
  view.show(current);
  refresh.start();
  refresh.request();
  const onInterrupt = async () => {
    view.stop();
    if (current && !finished(current) && (await askToCancel(io))) {
      await client.cancelMaintenance({ params: { id: current.id } });
      io.err("Cancelling: the run stops after its current step.\n");
    } else {
      process.once("SIGINT", onInterrupt);
    }
  };
  process.once("SIGINT", onInterrupt);
  const outcome = await Promise.race([ended, done.then(() => null)]);
  stop.abort();
  view.stop();
  process.off("SIGINT", onInterrupt);
  if (!outcome) return EXIT.failed;
  io.out(`Maintenance ${outcome.state}: ${outcome.message ?? ""}\n`);
  return outcome.state === "Succeeded" ? EXIT.done : EXIT.failed;
}

export function registerDrain(program: Command, io: Io): void {
  program
    .command("drain")
    .description("Drain a node through Berth's maintenance: checkpoint its sandboxes, then evict them, with their budgets relaxed")
    .argument("<node>")
    .option("--preview", "say what draining would do to each pod, and why; change nothing")
    .option("--parallelism <count>", "at most how many checkpoints and evictions go at once (default: every sandbox of the node, fewer while the API server throttles)")
    .addOption(new Option("-o, --output <format>", "the preview as").choices(["json", "yaml"]))
    .action(async (node: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions & { preview?: boolean; parallelism?: string; output?: string }>();
      const session = openSession(options);
      if (options.preview) return preview(session.client, node, options.output, io);
      process.exitCode = await run(session.client, node, options.parallelism ? Number(options.parallelism) : undefined, io);
    });
}
