import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shellWord } from "./shell-words.ts";

// Judged by a real POSIX shell, not by reading the quoting: whatever the text, `sh -c` reads
// shellWord(text) back as that one word and runs none of it.

const shell = (script: string) => spawnSync("sh", ["-c", script], { encoding: "utf8" });

/** Text as hostile as a spec can hold: quotes, $( ), backquotes, globs, newlines, any Unicode. */
const hostileText = fc.oneof(
  fc.string({ unit: fc.constantFrom("'", '"', "\\", "$", "(", ")", "`", ";", "&", "|", "*", "?", "~", " ", "\n", "\t", "#", "!", "{", "}", "<", ">", "a", "/", "-") }),
  fc.string({ unit: "grapheme" }),
).filter((text) => !text.includes("\u0000"));

describe("shellWord", () => {
  it("is read back by sh as exactly the text it was given", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        expect(shell(`printf '%s' ${shellWord(text)}`).stdout).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("is one word, however many spaces or separators the text has", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        expect(shell(`set -- ${shellWord(text)}; printf '%s' "$#"`).stdout).toBe("1");
      }),
      { numRuns: 100 },
    );
  });

  it("leaves a plainly safe path as it is", () => {
    expect(shellWord("/sandbox/.berth")).toBe("/sandbox/.berth");
  });
});
