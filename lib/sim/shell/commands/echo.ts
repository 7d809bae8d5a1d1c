import type { CommandContext } from "./command.ts";
import { interpretEscapes } from "./escapes.ts";

/** bash's echo: `-n` drops the newline, `-e` interprets backslash escapes, `-E` (the default) does not. */
export function echo(args: string[], context: CommandContext): number {
  let newline = true;
  let escapes = false;
  let index = 0;
  for (; index < args.length; index += 1) {
    const arg = args[index] ?? "";
    if (!/^-[neE]+$/.test(arg)) break;
    for (const letter of arg.slice(1)) {
      if (letter === "n") newline = false;
      else escapes = letter === "e";
    }
  }
  const text = args.slice(index).join(" ");
  if (!escapes) {
    context.stdout.write(newline ? `${text}\n` : text);
    return 0;
  }
  const { text: expanded, stop } = interpretEscapes(text, "echo");
  context.stdout.write(newline && !stop ? `${expanded}\n` : expanded);
  return 0;
}
