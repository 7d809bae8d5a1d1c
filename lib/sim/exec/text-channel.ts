import { StringDecoder } from "node:string_decoder";

/**
 * A client's stdin as text: bytes arrive in frames that may split a UTF-8 character, are decoded
 * in order, and are read as an async iterable that ends when the client closes stdin.
 */
export class TextChannel implements AsyncIterable<string> {
  private readonly decoder = new StringDecoder("utf8");
  private readonly queued: string[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  get isEnded(): boolean {
    return this.ended;
  }

  push(bytes: Buffer): void {
    if (this.ended) return;
    const text = this.decoder.write(bytes);
    if (text === "") return;
    this.queued.push(text);
    this.notify();
  }

  end(): void {
    if (this.ended) return;
    const rest = this.decoder.end();
    if (rest !== "") this.queued.push(rest);
    this.ended = true;
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      const next = this.queued.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
