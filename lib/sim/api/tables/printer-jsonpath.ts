import { isRecord } from "../../objects.ts";

// The JSONPath of a CustomResourceDefinition's additionalPrinterColumns, as the API server reads
// it (client-go's jsonpath, wrapped in {…}): fields (.a.b), indexes ([0]), every element ([*]) and
// equality filters ([?(@.type=='Ready')]). Printer columns use no more than that; anything else
// is refused when the column is defined, not guessed at when it is printed.

type Step = { kind: "field"; name: string } | { kind: "index"; index: number } | { kind: "all" } | { kind: "filter"; path: string[]; value: string };

export class PrinterPathError extends Error {
  override name = "PrinterPathError";
}

const FIELD = /^\.([A-Za-z_$][\w$-]*)/;
const INDEX = /^\[(\d+)\]/;
const ALL = /^\[\*\]/;
const FILTER = /^\[\?\(@((?:\.[A-Za-z_$][\w$-]*)+)\s*==\s*(?:'([^']*)'|"([^"]*)")\)\]/;

export function parsePrinterPath(path: string): Step[] {
  const steps: Step[] = [];
  let rest = path.trim();
  while (rest.length > 0) {
    let match: RegExpExecArray | null;
    if ((match = FIELD.exec(rest))) steps.push({ kind: "field", name: match[1]! });
    else if ((match = INDEX.exec(rest))) steps.push({ kind: "index", index: Number(match[1]) });
    else if ((match = ALL.exec(rest))) steps.push({ kind: "all" });
    else if ((match = FILTER.exec(rest))) steps.push({ kind: "filter", path: match[1]!.slice(1).split("."), value: match[2] ?? match[3]! });
    else throw new PrinterPathError(`unsupported printer column JSONPath ${JSON.stringify(path)} at ${JSON.stringify(rest)}`);
    rest = rest.slice(match[0].length);
  }
  return steps;
}

function valueAt(object: unknown, path: string[]): unknown {
  return path.reduce<unknown>((value, name) => (isRecord(value) ? value[name] : undefined), object);
}

/** Every value the path finds in `object`, in order (none when a step finds nothing). */
export function findAll(object: unknown, steps: Step[]): unknown[] {
  let found: unknown[] = [object];
  for (const step of steps) {
    found = found.flatMap((value): unknown[] => {
      switch (step.kind) {
        case "field":
          return isRecord(value) && value[step.name] !== undefined ? [value[step.name]] : [];
        case "index":
          return Array.isArray(value) && step.index < value.length ? [value[step.index]] : [];
        case "all":
          return Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [];
        case "filter":
          return Array.isArray(value) ? value.filter((element) => String(valueAt(element, step.path)) === step.value) : [];
      }
    });
  }
  return found;
}
