// Where a command writes: standard output for what was asked for, standard error for the rest
// (progress, warnings, why it failed), so a pipe gets only the answer.

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether a person is watching standard output (colours, progress bars, full-screen views). */
  interactive: boolean;
  /** Whether to colour what is printed: at a terminal unless NO_COLOR says no, or wherever FORCE_COLOR says yes. */
  colour: boolean;
}

/** https://no-color.org and FORCE_COLOR, as most terminal tools read them; being in CI is no reason. */
export function wantsColour(terminal: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return terminal;
}

export const processIo: Io = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  interactive: Boolean(process.stdout.isTTY),
  colour: wantsColour(Boolean(process.stdout.isTTY), process.env),
};
