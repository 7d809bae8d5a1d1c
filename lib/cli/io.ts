// Where a command writes: standard output for what was asked for, standard error for the rest
// (progress, warnings, why it failed), so a pipe gets only the answer.

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether a person is watching standard output (colours, progress bars, full-screen views). */
  interactive: boolean;
}

export const processIo: Io = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  interactive: Boolean(process.stdout.isTTY),
};
