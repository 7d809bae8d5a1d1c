/** Where a command's output goes: the caller, a pipe, a file, or nowhere. */
export interface OutputSink {
  write(text: string): void;
}

/**
 * A command's standard input. Reading consumes it, as reading a real pipe does: what one command
 * took, the next one in the same shell does not see again.
 */
export interface InputSource {
  /** Everything left until end of file. */
  readAll(): Promise<string>;
  /** The next line with its newline (none on an unterminated last line), or undefined at end of file. */
  readLine(): Promise<string | undefined>;
}

export interface Streams {
  stdin: InputSource;
  stdout: OutputSink;
  stderr: OutputSink;
}

export class BufferSink implements OutputSink {
  text = "";

  write(text: string): void {
    this.text += text;
  }
}

/**
 * A pipe between two pipeline stages. The reader takes text as the writer produces it; once the
 * reader has exited, the next write fails the writer the way SIGPIPE does (`… | head -n 1`).
 * Writes never block, so a pipe whose reader only reads at the end is capped at `capacity`.
 */
export class Pipe implements OutputSink, InputSource {
  private buffered = "";
  private writerClosed = false;
  private readerClosed = false;
  private waiting: (() => void) | undefined;

  constructor(
    private readonly capacity: number,
    private readonly onBrokenPipe: () => never,
  ) {}

  write(text: string): void {
    if (this.readerClosed || this.buffered.length + text.length > this.capacity) this.onBrokenPipe();
    this.buffered += text;
    this.wake();
  }

  closeWriter(): void {
    this.writerClosed = true;
    this.wake();
  }

  closeReader(): void {
    this.readerClosed = true;
    this.buffered = "";
  }

  async readAll(): Promise<string> {
    while (!this.writerClosed) await this.nextWrite();
    const text = this.buffered;
    this.buffered = "";
    return text;
  }

  async readLine(): Promise<string | undefined> {
    for (;;) {
      const newline = this.buffered.indexOf("\n");
      if (newline >= 0) {
        const line = this.buffered.slice(0, newline + 1);
        this.buffered = this.buffered.slice(newline + 1);
        return line;
      }
      if (this.writerClosed) {
        const rest = this.buffered;
        this.buffered = "";
        return rest === "" ? undefined : rest;
      }
      await this.nextWrite();
    }
  }

  private nextWrite(): Promise<void> {
    return new Promise((resolve) => {
      const previous = this.waiting;
      this.waiting = () => {
        previous?.();
        resolve();
      };
    });
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}

export const DISCARD: OutputSink = { write: () => {} };

/** Input that becomes available at once or later (a pipe's writer finishing, a client sending stdin). */
export class ConsumableInput implements InputSource {
  private buffer: string | undefined;
  private pending: Promise<string> | undefined;

  /** `load` runs on the first read only: input nobody reads is never waited for. */
  constructor(private readonly load: () => string | Promise<string>) {}

  async readAll(): Promise<string> {
    const text = await this.fill();
    this.buffer = "";
    return text;
  }

  async readLine(): Promise<string | undefined> {
    const text = await this.fill();
    if (text === "") return undefined;
    const newline = text.indexOf("\n");
    if (newline < 0) {
      this.buffer = "";
      return text;
    }
    this.buffer = text.slice(newline + 1);
    return text.slice(0, newline + 1);
  }

  private async fill(): Promise<string> {
    this.pending ??= Promise.resolve(this.load());
    this.buffer ??= await this.pending;
    return this.buffer;
  }
}

export function textInput(text: string): InputSource {
  return new ConsumableInput(() => text);
}

export const NO_INPUT: InputSource = { readAll: async () => "", readLine: async () => undefined };

/** A client's stdin, collected until it ends, and only once a command asks for it. */
export function streamedInput(chunks: AsyncIterable<string>): InputSource {
  return new ConsumableInput(async () => {
    let text = "";
    for await (const chunk of chunks) text += chunk;
    return text;
  });
}
