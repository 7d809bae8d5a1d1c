import { Argument, type Command } from "commander";
import { readConfig, configPath } from "../cli-config.ts";
import { COMPLETION_SCRIPTS, completions, type NameSource } from "../completion.ts";
import type { Io } from "../io.ts";
import { listingFor } from "../listings.ts";
import { openSession } from "../session.ts";

// berth completion bash|zsh|fish, and the hidden `berth __complete WORDS…` the scripts call.

/** Names fetched as the command being completed would fetch them: its -n, --server and --context count. */
const liveNames: NameSource = async (kind, { words, previous }) => {
  if (kind === "contexts") return readConfig(configPath()).contexts.map((context) => context.name);
  const flag = (...names: string[]) => {
    const at = words.findIndex((word) => names.includes(word));
    return at >= 0 ? words[at + 1] : undefined;
  };
  const session = openSession({ server: flag("--server"), context: flag("--context"), namespace: flag("-n", "--namespace") });
  const all = words.includes("-A") || words.includes("--all-namespaces");
  const listing = listingFor(kind === "resource-names" ? previous[0]! : kind);
  const items = await listing.list(session, all ? undefined : session.namespace);
  return [...new Set(items.map((item) => listing.printable.nameOf(item)))];
};

export function registerCompletion(program: Command, io: Io): void {
  program
    .command("completion")
    .description("Print the shell completion script: source <(berth completion bash)")
    .addArgument(new Argument("<shell>").choices(Object.keys(COMPLETION_SCRIPTS)))
    .action((shell: keyof typeof COMPLETION_SCRIPTS) => io.out(COMPLETION_SCRIPTS[shell]));

  program
    .command("__complete", { hidden: true })
    .argument("[words...]")
    .allowUnknownOption()
    .helpOption(false)
    .action(async (words: string[]) => {
      for (const candidate of await completions(program, words.length > 0 ? words : [""], liveNames)) io.out(`${candidate}\n`);
    });
}
