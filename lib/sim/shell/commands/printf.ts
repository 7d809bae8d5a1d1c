import { type CommandContext, report } from "./command.ts";
import { interpretEscapes } from "./escapes.ts";

interface Conversion {
  flags: string;
  width: number | undefined;
  precision: number | undefined;
  letter: string;
}

const CONVERSION = /^%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?([sbcdiouxXfFeEgG%])/;

/** printf(1): the format is reused until the arguments run out, as POSIX asks. */
export function printf(args: string[], context: CommandContext): number {
  const [format, ...rest] = args;
  if (format === undefined) {
    report(context, "usage: printf format [arg ...]");
    return 2;
  }
  const state = { args: rest, status: 0, consumed: 0 };
  let output = "";
  for (;;) {
    const before = state.consumed;
    const { text, stop } = formatOnce(format, state, context);
    output += text;
    if (stop || state.args.length === 0 || state.consumed === before) break;
  }
  context.stdout.write(output);
  return state.status;
}

function formatOnce(format: string, state: { args: string[]; status: number; consumed: number }, context: CommandContext): { text: string; stop: boolean } {
  let out = "";
  let literalStart = 0;
  const flushLiteral = (end: number): boolean => {
    const { text, stop } = interpretEscapes(format.slice(literalStart, end), "printf-format");
    out += text;
    return stop;
  };
  for (let index = 0; index < format.length; index += 1) {
    if (format[index] !== "%") continue;
    if (flushLiteral(index)) return { text: out, stop: true };
    const match = CONVERSION.exec(format.slice(index));
    if (match === null) {
      report(context, `%${format[index + 1] ?? ""}: invalid directive`);
      state.status = 1;
      return { text: out, stop: true };
    }
    const next = (): string | undefined => {
      const value = state.args.shift();
      if (value !== undefined) state.consumed += 1;
      return value;
    };
    const numberFrom = (text: string | undefined): number | undefined => (text === undefined ? undefined : text === "*" ? Number(next() ?? 0) : Number(text));
    const conversion: Conversion = {
      flags: match[1] ?? "",
      width: numberFrom(match[2]),
      precision: match[3] === undefined ? undefined : match[3] === "" ? 0 : numberFrom(match[3]),
      letter: match[4] ?? "s",
    };
    if (conversion.letter === "%") out += "%";
    else {
      const { text, stop } = convert(conversion, next(), state, context);
      out += text;
      if (stop) return { text: out, stop: true };
    }
    index += match[0].length - 1;
    literalStart = index + 1;
  }
  const stop = flushLiteral(format.length);
  return { text: out, stop };
}

function convert(conversion: Conversion, arg: string | undefined, state: { status: number }, context: CommandContext): { text: string; stop: boolean } {
  const { letter, precision } = conversion;
  if (letter === "s") return { text: pad(precision === undefined ? (arg ?? "") : (arg ?? "").slice(0, precision), conversion, false), stop: false };
  if (letter === "b") {
    const { text, stop } = interpretEscapes(arg ?? "", "echo");
    return { text: pad(text, conversion, false), stop };
  }
  if (letter === "c") return { text: pad((arg ?? "").slice(0, 1), conversion, false), stop: false };
  const value = numericValue(arg, context, state);
  if ("diouxX".includes(letter)) {
    const integer = Math.trunc(value);
    const digits =
      letter === "o" ? Math.abs(integer).toString(8) : letter === "x" ? Math.abs(integer).toString(16) : letter === "X" ? Math.abs(integer).toString(16).toUpperCase() : String(Math.abs(integer));
    const body = precision === undefined ? digits : digits.padStart(precision, "0");
    return { text: pad(withSign(body, integer < 0, conversion.flags), conversion, precision === undefined), stop: false };
  }
  const decimals = precision ?? 6;
  const magnitude = Math.abs(value);
  const body =
    letter === "e" || letter === "E"
      ? exponent(magnitude, decimals, letter)
      : letter === "g" || letter === "G"
        ? String(Number(magnitude.toPrecision(Math.max(decimals, 1))))
        : magnitude.toFixed(decimals);
  return { text: pad(withSign(body, value < 0, conversion.flags), conversion, true), stop: false };
}

function exponent(value: number, decimals: number, letter: string): string {
  const [mantissa = "0", power = "0"] = value.toExponential(decimals).split("e");
  const sign = power.startsWith("-") ? "-" : "+";
  const text = `${mantissa}e${sign}${power.replace(/^[+-]/, "").padStart(2, "0")}`;
  return letter === "E" ? text.toUpperCase() : text;
}

function withSign(body: string, negative: boolean, flags: string): string {
  if (negative) return `-${body}`;
  if (flags.includes("+")) return `+${body}`;
  if (flags.includes(" ")) return ` ${body}`;
  return body;
}

function pad(text: string, conversion: Conversion, numeric: boolean): string {
  const width = conversion.width ?? 0;
  if (text.length >= width) return text;
  if (conversion.flags.includes("-")) return text.padEnd(width, " ");
  if (numeric && conversion.flags.includes("0")) {
    const sign = /^[-+ ]/.test(text) ? text.slice(0, 1) : "";
    return `${sign}${text.slice(sign.length).padStart(width - sign.length, "0")}`;
  }
  return text.padStart(width, " ");
}

function numericValue(arg: string | undefined, context: CommandContext, state: { status: number }): number {
  if (arg === undefined || arg === "") return 0;
  if (/^['"]/.test(arg)) return arg.codePointAt(1) ?? 0;
  const trimmed = arg.trim();
  const value = /^[-+]?0x[0-9a-f]+$/i.test(trimmed)
    ? Number.parseInt(trimmed, 16)
    : /^[-+]?0[0-7]+$/.test(trimmed)
      ? Number.parseInt(trimmed, 8)
      : Number(trimmed);
  if (Number.isNaN(value)) {
    report(context, `${arg}: expected numeric value`);
    state.status = 1;
    return 0;
  }
  return value;
}
