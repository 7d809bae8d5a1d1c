import { baseName } from "../filesystem/paths.ts";
import { applyShellOptions } from "./builtins.ts";
import type { CommandContext } from "./commands/command.ts";
import { runSource } from "./interpreter.ts";
import { type Dialect, ShellState, type ShellServices } from "./shell-state.ts";

/**
 * `sh`, `bash`, `dash` as programs: `-c SCRIPT [NAME [ARGS…]]`, `FILE [ARGS…]`, or the script on
 * stdin. Both run the same interpreter; bash differs only in how it words its diagnostics.
 */
export function shellProgram(services: ShellServices) {
  return async (args: string[], context: CommandContext): Promise<number> => {
    const dialect: Dialect = baseName(context.name) === "bash" ? "bash" : "dash";
    const state = new ShellState({ env: context.env, cwd: context.cwd, scriptName: context.name, dialect, services });
    const termination = services.takeTermination();
    termination?.addEventListener("abort", () => state.receive("TERM"), { once: true });
    let commandMode = false;
    let readStdin = false;
    let index = 0;
    for (; index < args.length; index += 1) {
      const arg = args[index] ?? "";
      if (arg === "--" || arg === "-") {
        index += 1;
        break;
      }
      if (!/^[-+]/.test(arg)) break;
      if (arg.startsWith("--")) continue; // --login, --norc, --noprofile: nothing to load in the simulation
      const letters = arg.slice(1);
      if (letters.includes("c")) commandMode = true;
      if (letters.includes("s")) readStdin = true;
      const rest = letters.replace(/[csil]/g, "");
      if (rest === "") continue;
      const withValue = rest.includes("o") ? [`${arg[0] ?? "-"}${rest}`, args[(index += 1)] ?? ""] : [`${arg[0] ?? "-"}${rest}`];
      const { error } = applyShellOptions(withValue, state);
      if (error !== undefined) {
        context.stderr.write(`${context.name}: 0: ${error}\n`);
        return 2;
      }
    }
    const operands = args.slice(index);
    let source: string;
    if (commandMode) {
      const [script, name, ...positional] = operands;
      if (script === undefined) {
        context.stderr.write(dialect === "bash" ? `${context.name}: -c: option requires an argument\n` : `${context.name}: 0: -c requires an argument\n`);
        return 2;
      }
      source = script;
      if (name !== undefined) state.scriptName = name;
      state.positional = positional;
    } else if (operands.length > 0 && !readStdin) {
      const [file = "", ...positional] = operands;
      try {
        source = context.fs.readFile(file, { cwd: context.cwd });
      } catch {
        context.stderr.write(dialect === "bash" ? `${context.name}: ${file}: No such file or directory\n` : `${context.name}: 0: cannot open ${file}: No such file\n`);
        return dialect === "bash" ? 127 : 2;
      }
      state.scriptName = file;
      state.positional = positional;
    } else {
      source = await context.stdin.readAll();
      state.positional = operands;
    }
    return runSource(source, state, { stdin: context.stdin, stdout: context.stdout, stderr: context.stderr });
  };
}
