import { Command, CommanderError } from "commander";
import { EXIT, reportFailure } from "./cli-errors.ts";
import { registerAuth } from "./commands/auth.ts";
import { registerCompletion } from "./commands/completion.ts";
import { registerDescribe } from "./commands/describe.ts";
import { registerDrain } from "./commands/drain.ts";
import { registerGet } from "./commands/get.ts";
import { registerSandboxCommands } from "./commands/sandboxes.ts";
import { registerTimeline } from "./commands/timeline.ts";
import { registerTop } from "./commands/top.ts";
import { registerVolumes } from "./commands/volumes.ts";
import type { Io } from "./io.ts";

// `berth`: Berth from a terminal, in kubectl's conventions. Each command calls Berth's API
// through the same typed client the browser uses; Kubernetes RBAC decides what it may do.

export function berthProgram(io: Io, version: string): Command {
  const program = new Command("berth")
    .description("Berth from a terminal: sandboxes for AI agents on Kubernetes, their disruptions, recovery and storage")
    .version(version)
    .option("--server <url>", "the Berth to talk to (default: BERTH_SERVER, then the current context's)")
    .option("--token <token>", "a Kubernetes bearer token (default: BERTH_TOKEN, then the current context's)")
    .option("--context <name>", "use this context instead of the current one")
    .option("-n, --namespace <namespace>", "the namespace (default: the context's; without one, every namespace you may see)")
    .showSuggestionAfterError()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride();
  registerAuth(program, io);
  registerGet(program, io);
  registerDescribe(program, io);
  registerSandboxCommands(program, io);
  registerTimeline(program, io);
  registerDrain(program, io);
  registerVolumes(program, io);
  registerTop(program, io);
  registerCompletion(program, io);
  const everyCommand = (command: Command): Command[] => [command, ...command.commands.flatMap(everyCommand)];
  for (const command of everyCommand(program)) command.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
  return program;
}

/** Runs the command line; answers the exit code: 0 done, 1 refused or failed, 2 wrong usage. */
export async function runBerth(argv: string[], io: Io, version: string): Promise<number> {
  const program = berthProgram(io, version);
  try {
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : EXIT.done;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and the version asked for are answers; anything else commander says is a usage error it printed.
      return ["commander.helpDisplayed", "commander.version", "commander.help"].includes(error.code) ? EXIT.done : EXIT.usage;
    }
    return reportFailure(error, io.err);
  }
}
