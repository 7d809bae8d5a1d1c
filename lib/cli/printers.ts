import Table from "cli-table3";
import pc from "picocolors";
import { stripVTControlCharacters } from "node:util";
import { stringify } from "yaml";

// How `berth get` prints what it got, in kubectl's formats: a table of columns (more of them
// with `wide`), the objects as JSON or YAML, or `kind/name` lines for scripts.

export const OUTPUT_FORMATS = ["table", "wide", "json", "yaml", "name"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** What a cell may need besides its item: the moment ages are counted to, and how to colour a word. */
export interface Cell {
  now: Date;
  tone: (word: string) => string;
}

export interface Column<Item> {
  header: string;
  value: (item: Item, cell: Cell) => string;
  /** Only in `-o wide`. */
  wide?: true;
}

export interface PrintOptions {
  format: OutputFormat;
  /** Listing every namespace: a NAMESPACE column comes first, as with kubectl -A. */
  allNamespaces: boolean;
  now: Date;
  /** Colour phases and states (only for a person at a terminal: see `Io.colour`). */
  colour: boolean;
  /** Leave out the header (a watch prints it once). */
  noHeaders?: boolean;
  /** Pad each column to at least this many characters, so a watch's later rows line up under its table. */
  minWidths?: readonly number[];
}

export interface Printable<Item> {
  /** `-o name` prints `<kind>/<name>`. */
  kind: string;
  nameOf: (item: Item) => string;
  /** Absent for what lives outside namespaces (nodes, classes). */
  namespaceOf?: (item: Item) => string;
  columns: Column<Item>[];
}

const BORDERLESS = {
  chars: { top: "", "top-mid": "", "top-left": "", "top-right": "", bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "", left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "" },
  style: { head: [], border: [], "padding-left": 0, "padding-right": 3, compact: true },
};

/** Columns aligned as kubectl aligns them: three spaces apart, no borders, nothing trailing. */
export function table(header: string[] | null, rows: string[][]): string {
  const printed = new Table({ ...(header ? { head: header } : {}), ...BORDERLESS });
  printed.push(...rows);
  return printed
    .toString()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n");
}

function columnsFor<Item>(printable: Printable<Item>, options: PrintOptions): Column<Item>[] {
  const chosen = printable.columns.filter((column) => options.format === "wide" || !column.wide);
  return options.allNamespaces && printable.namespaceOf ? [{ header: "NAMESPACE", value: (item) => printable.namespaceOf!(item) }, ...chosen] : chosen;
}

function cellsOf<Item>(printable: Printable<Item>, items: Item[], options: PrintOptions): { header: string[]; rows: string[][] } {
  const columns = columnsFor(printable, options);
  const cell: Cell = { now: options.now, tone: toneIn(options.colour) };
  return { header: columns.map((column) => column.header), rows: items.map((item) => columns.map((column) => column.value(item, cell))) };
}

/** Colour codes take no room on the screen. */
const widthOf = (text: string) => stripVTControlCharacters(text).length;
const padTo = (text: string, width: number) => text + " ".repeat(Math.max(0, width - widthOf(text)));

/** How wide each column of a table of these items is, its header included. */
export function columnWidths<Item>(printable: Printable<Item>, items: Item[], options: PrintOptions): number[] {
  const { header, rows } = cellsOf(printable, items, options);
  return header.map((title, index) => Math.max(widthOf(title), ...rows.map((row) => widthOf(row[index]!))));
}

/** One object, or a list, in JSON or YAML: a list as `{items: [...]}`, as the API answers it. */
export function serialized(value: unknown, format: "json" | "yaml"): string {
  const plain = JSON.parse(JSON.stringify(value)) as unknown;
  return format === "json" ? `${JSON.stringify(plain, null, 2)}\n` : stringify(plain, { lineWidth: 0 });
}

export function printItems<Item>(printable: Printable<Item>, items: Item[], options: PrintOptions, single = false): string {
  switch (options.format) {
    case "json":
    case "yaml":
      return serialized(single ? items[0] : { items }, options.format);
    case "name":
      return items.map((item) => `${printable.kind}/${printable.nameOf(item)}\n`).join("");
    case "table":
    case "wide": {
      if (items.length === 0) return "";
      const { header, rows } = cellsOf(printable, items, options);
      const padded = rows.map((row) => row.map((text, index) => padTo(text, options.minWidths?.[index] ?? 0)));
      return `${table(options.noHeaders ? null : header, padded)}\n`;
    }
  }
}

type Colours = ReturnType<typeof pc.createColors>;
const plain = pc.createColors(false);
const coloured = pc.createColors(true);

/** A phase or state in the colour a person reads it by; unchanged where colour is off. */
export function toneIn(colour: boolean): (word: string) => string {
  const colours = colour ? coloured : plain;
  return (word) => tone(word, colours);
}

function tone(word: string, colours: Colours): string {
  if (["Ready", "Succeeded", "Bound", "attached", "Recovered", "True"].includes(word)) return colours.green(word);
  if (["Disrupted", "Recovering", "Checkpointing", "Pending", "Running", "Blocked", "Starting", "Provisioning", "Stopping"].includes(word)) return colours.yellow(word);
  if (["Error", "Failed", "Lost", "Interrupted", "orphaned", "NotReady"].includes(word)) return colours.red(word);
  return word;
}
