const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
};

/**
 * Backslash escapes as `echo -e`, `printf`'s format and `printf %b` read them. They differ only in
 * octal: echo and %b write `\0nnn`, printf's format `\nnn`. `\c` stops all further output.
 */
export function interpretEscapes(text: string, flavour: "echo" | "printf-format"): { text: string; stop: boolean } {
  let out = "";
  for (let index = 0; index < text.length; index += 1) {
    const c = text[index];
    if (c !== "\\" || index + 1 >= text.length) {
      out += c;
      continue;
    }
    const next = text[index + 1] ?? "";
    if (next === "c") return { text: out, stop: true };
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      index += 1;
      continue;
    }
    if (next === '"' && flavour === "printf-format") {
      out += '"';
      index += 1;
      continue;
    }
    const octal = flavour === "echo" ? /^0([0-7]{0,3})/.exec(text.slice(index + 1)) : /^([0-7]{1,3})/.exec(text.slice(index + 1));
    if (octal !== null) {
      out += String.fromCharCode(Number.parseInt(octal[1] === "" ? "0" : (octal[1] ?? "0"), 8));
      index += octal[0].length;
      continue;
    }
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(text.slice(index + 1));
    if (hex?.[1] !== undefined) {
      out += String.fromCharCode(Number.parseInt(hex[1], 16));
      index += hex[0].length;
      continue;
    }
    out += `\\${next}`;
    index += 1;
  }
  return { text: out, stop: false };
}
