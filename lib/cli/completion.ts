import type { Command, Option } from "commander";

// Shell completion: the scripts `berth completion bash|zsh|fish` prints are small and the same
// for every command; each asks `berth __complete WORDS…` what may come next, and that answer is
// read from the command tree itself (commands, options, their choices, argument choices), with
// the names of what a command acts on (sandboxes, contexts) fetched as the command would.

/** The names a positional argument can take, fetched when asked for: `kind` is what the argument names. */
export type NameSource = (kind: "sandboxes" | "nodes" | "volumes" | "resource-names" | "contexts", context: { words: string[]; previous: string[] }) => Promise<string[]>;

const visibleCommands = (command: Command) => command.commands.filter((one) => !(one as Command & { _hidden?: boolean })._hidden);
const allOptions = (chain: Command[]) => chain.flatMap((command) => command.options as Option[]).filter((option) => !option.hidden);
const optionNamed = (chain: Command[], word: string) => allOptions(chain).find((option) => option.long === word || option.short === word);

/** What the positional arguments of a command (by its path) may be, beyond argument choices: names fetched live. */
const DYNAMIC: Record<string, (index: number) => Parameters<NameSource>[0] | null> = {
  get: (index) => (index === 1 ? "resource-names" : null),
  describe: (index) => (index === 1 ? "sandboxes" : null),
  delete: (index) => (index === 1 ? "sandboxes" : null),
  stop: (index) => (index === 0 ? "sandboxes" : null),
  start: (index) => (index === 0 ? "sandboxes" : null),
  recover: (index) => (index === 0 ? "sandboxes" : null),
  checkpoint: (index) => (index === 0 ? "sandboxes" : null),
  exec: (index) => (index === 0 ? "sandboxes" : null),
  timeline: (index) => (index === 0 ? "sandboxes" : null),
  "config use-context": (index) => (index === 0 ? "contexts" : null),
  drain: (index) => (index === 0 ? "nodes" : null),
  "volumes delete": (index) => (index === 0 ? "volumes" : null),
  "volumes expand": (index) => (index === 0 ? "volumes" : null),
};

/** The candidates for the last of `words` (what is typed so far of the current word). */
export async function completions(program: Command, words: string[], names: NameSource): Promise<string[]> {
  const current = words.at(-1) ?? "";
  const before = words.slice(0, -1);
  const chain = [program];
  const positionals: string[] = [];
  for (let index = 0; index < before.length; index++) {
    const word = before[index]!;
    const option = word.startsWith("-") ? optionNamed(chain, word.split("=")[0]!) : undefined;
    if (option) {
      if (!option.isBoolean() && !word.includes("=")) index++;
      continue;
    }
    if (word === "--") break;
    const sub = positionals.length === 0 ? visibleCommands(chain.at(-1)!).find((one) => one.name() === word || one.aliases().includes(word)) : undefined;
    if (sub) chain.push(sub);
    else positionals.push(word);
  }
  const command = chain.at(-1)!;
  const previousOption = before.length > 0 ? optionNamed(chain, before.at(-1)!) : undefined;
  let candidates: string[];
  if (previousOption && !previousOption.isBoolean()) {
    candidates = previousOption.argChoices ?? [];
  } else if (current.startsWith("-")) {
    candidates = allOptions(chain).flatMap((option) => (option.long ? [option.long] : []));
  } else if (visibleCommands(command).length > 0 && positionals.length === 0) {
    candidates = visibleCommands(command).map((one) => one.name());
  } else {
    const argument = command.registeredArguments[Math.min(positionals.length, command.registeredArguments.length - 1)];
    const dynamic = DYNAMIC[chain.slice(1).map((one) => one.name()).join(" ")]?.(positionals.length) ?? null;
    candidates = argument?.argChoices ?? (dynamic ? await names(dynamic, { words, previous: positionals }).catch(() => []) : []);
  }
  return candidates.filter((candidate) => candidate.startsWith(current));
}

export const COMPLETION_SCRIPTS = {
  bash: `# berth completion for bash: source <(berth completion bash)
_berth() {
  local IFS=$'\\n'
  COMPREPLY=($(berth __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _berth berth
`,
  zsh: `#compdef berth
# berth completion for zsh: source <(berth completion zsh)
_berth() {
  local -a candidates
  candidates=("\${(@f)$(berth __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -- \${candidates:#}
}
compdef _berth berth
`,
  fish: `# berth completion for fish: berth completion fish | source
complete -c berth -f -a '(berth __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`,
} as const;
export type Shell = keyof typeof COMPLETION_SCRIPTS;
