import { Option, type Command } from "commander";
import { NotFoundError, UsageError } from "../cli-errors.ts";
import { followEvents } from "../event-stream.ts";
import type { Io } from "../io.ts";
import { findSandbox, listingFor, RESOURCE_NAMES, type Listing } from "../listings.ts";
import { OUTPUT_FORMATS, printItems, type OutputFormat, type PrintOptions } from "../printers.ts";
import { openSession, type GlobalOptions, type Session } from "../session.ts";

// berth get RESOURCE [NAME] [-n NS | -A] [-o FORMAT] [-w]

interface GetOptions extends GlobalOptions {
  allNamespaces?: boolean;
  output: OutputFormat;
  watch?: boolean;
}

/** The namespace to list: -A is every one, -n one; without either, the context's, else every one the person may see. */
function scope(listing: Listing<unknown>, session: Session, options: GetOptions): string | undefined {
  if (!listing.namespaced) return undefined;
  if (options.allNamespaces && options.namespace) throw new UsageError("-A lists every namespace: leave out -n, or leave out -A");
  return options.allNamespaces ? undefined : session.namespace;
}

const keyOf = (listing: Listing<unknown>, item: unknown) => `${listing.printable.namespaceOf?.(item) ?? ""}/${listing.printable.nameOf(item)}`;

/**
 * Prints each change as it happens: every event marks the list as changed, the list is read
 * again (at most every `settleMs`), and each row that reads differently is printed; a sandbox
 * that is gone is printed once more as Deleted.
 */
async function watch(listing: Listing<unknown>, session: Session, namespace: string | undefined, name: string | undefined, print: PrintOptions, first: unknown[], io: Io): Promise<void> {
  const line = (item: unknown) => printItems(listing.printable, [item], { ...print, now: new Date(), noHeaders: true });
  const shown = new Map(first.map((item) => [keyOf(listing, item), { item, line: line(item) }]));
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  let reading: Promise<void> | null = null;
  let again = false;
  const refresh = async () => {
    const items = (await listing.list(session, namespace)).filter((item) => name === undefined || listing.printable.nameOf(item) === name);
    const now = new Map(items.map((item) => [keyOf(listing, item), item]));
    for (const [key, item] of now) {
      const printed = line(item);
      if (shown.get(key)?.line !== printed) io.out(printed);
      shown.set(key, { item, line: printed });
    }
    for (const [key, { item }] of [...shown].filter(([key]) => !now.has(key))) {
      shown.delete(key);
      if (listing.names[0] === "sandboxes") io.out(line({ ...(item as object), phase: "Deleted", reason: null }));
    }
  };
  const changed = () => {
    if (reading) {
      again = true;
      return;
    }
    reading = refresh()
      .catch((error: unknown) => io.err(`warning: reading the list again failed: ${error instanceof Error ? error.message : String(error)}\n`))
      .finally(() => {
        reading = null;
        if (again) {
          again = false;
          changed();
        }
      });
  };
  await followEvents(session.client, {
    signal: stop.signal,
    onEvent: changed,
    onReload: changed,
    onDrop: (from) => {
      io.err(`the event stream dropped; resuming${from ? ` after event ${from}` : ""}\n`);
      changed();
    },
  });
}

export function registerGet(program: Command, io: Io): void {
  program
    .command("get")
    .description(`List resources, or show one: ${RESOURCE_NAMES.join(", ")}`)
    .argument("<resource>", `what to list: ${RESOURCE_NAMES.join(", ")} (singular and short names work too: sandbox, sb)`)
    .argument("[name]", "show only this one")
    .option("-A, --all-namespaces", "list every namespace you may see")
    .addOption(new Option("-o, --output <format>", "output format").choices(OUTPUT_FORMATS).default("table"))
    .option("-w, --watch", "after the list, print each change as it happens")
    .action(async (resource: string, name: string | undefined, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<GetOptions>();
      const listing = listingFor(resource);
      const session = openSession(options);
      const namespace = scope(listing, session, options);
      const print: PrintOptions = { format: options.output, allNamespaces: listing.namespaced && namespace === undefined, now: new Date() };
      const single = name !== undefined;
      const items = single && listing.names[0] === "sandboxes" ? [await findSandbox(session, name, namespace)] : await listing.list(session, namespace);
      const shown = single ? items.filter((item) => listing.printable.nameOf(item) === name) : items;
      if (single && shown.length === 0) throw new NotFoundError(`${listing.printable.kind} "${name}" not found`);
      if (shown.length === 0 && (options.output === "table" || options.output === "wide")) io.err(`No ${listing.names[0]} found${namespace ? ` in namespace ${namespace}` : ""}.\n`);
      io.out(printItems(listing.printable, shown, print, single && !options.watch));
      if (options.watch) await watch(listing, session, namespace, name, print, shown, io);
    });
}
