import { Option, type Command } from "commander";
import { NotFoundError, UsageError } from "../cli-errors.ts";
import { coalesced } from "../coalesced.ts";
import { dropNotice, startFollowing, untilInterrupted } from "../event-stream.ts";
import type { Io } from "../io.ts";
import { findSandbox, listingFor, RESOURCE_NAMES, SELECTABLE_NAMES, type Listing } from "../listings.ts";
import { columnWidths, OUTPUT_FORMATS, printItems, type OutputFormat, type PrintOptions } from "../printers.ts";
import { openSession, type GlobalOptions, type Session } from "../session.ts";

// berth get RESOURCE [NAME] [-n NS | -A] [-l SELECTOR] [-o FORMAT] [-w]

interface GetOptions extends GlobalOptions {
  allNamespaces?: boolean;
  selector?: string;
  output: OutputFormat;
  watch?: boolean;
}

/** The namespace to list: -A is every one, -n one; without either, the context's, else every one the person may see. */
function scope(listing: Listing<unknown>, session: Session, options: GetOptions): string | undefined {
  if (!listing.namespaced) return undefined;
  if (options.allNamespaces && options.namespace) throw new UsageError("-A lists every namespace: leave out -n, or leave out -A");
  return options.allNamespaces ? undefined : session.namespace;
}

interface Query {
  listing: Listing<unknown>;
  session: Session;
  namespace: string | undefined;
  name: string | undefined;
  selector: string | undefined;
  print: PrintOptions;
}

/** -l picks among the items of a listing that has labels; as with kubectl, not together with a name. */
function selectorFor(listing: Listing<unknown>, name: string | undefined, options: GetOptions): string | undefined {
  if (options.selector === undefined) return undefined;
  if (!listing.selectable) throw new UsageError(`-l selects ${SELECTABLE_NAMES.join(", ")} by their labels; berth cannot select ${listing.names[0]} by label`);
  if (name !== undefined) throw new UsageError("a name and -l cannot go together: leave out one of them");
  return options.selector;
}

/** The items asked for; one named item that is not there is NotFound. */
async function read({ listing, session, namespace, name, selector }: Query): Promise<unknown[]> {
  if (name === undefined) return listing.list(session, namespace, selector);
  const items = listing.names[0] === "sandboxes" ? [await findSandbox(session, name, namespace)] : (await listing.list(session, namespace)).filter((item) => listing.printable.nameOf(item) === name);
  if (items.length === 0) throw new NotFoundError(`${listing.printable.kind} "${name}" not found`);
  return items;
}

function show(query: Query, items: unknown[], io: Io, single: boolean): void {
  const { listing, namespace, print } = query;
  if (items.length === 0 && (print.format === "table" || print.format === "wide")) io.err(`No ${listing.names[0]} found${namespace ? ` in namespace ${namespace}` : ""}.\n`);
  io.out(printItems(listing.printable, items, print, single));
}

const keyOf = (listing: Listing<unknown>, item: unknown) => `${listing.printable.namespaceOf?.(item) ?? ""}/${listing.printable.nameOf(item)}`;

/**
 * The list, then each change as it happens. The event stream is opened before the list is read,
 * so no change falls between the two. Every event marks the list as changed; it is read again
 * (one read at a time, the next one after it if more came in) and each row that reads
 * differently is printed; a sandbox that is gone is printed once more as Deleted.
 */
async function watch(query: Query, io: Io): Promise<void> {
  const { listing, session, name, print } = query;
  // Later rows are padded to the table's columns (widening as rows need), so they line up under it.
  let widths: number[] = [];
  const line = (item: unknown) => {
    const options = { ...print, now: new Date(), noHeaders: true, minWidths: widths };
    widths = columnWidths(listing.printable, [item], options).map((width, index) => Math.max(width, widths[index] ?? 0));
    return printItems(listing.printable, [item], { ...options, minWidths: widths });
  };
  // A row is printed again when its object changed, not when its age ticked over.
  const shown = new Map<string, { item: unknown; state: string }>();
  const refresh = async () => {
    const items = (await listing.list(session, query.namespace, query.selector)).filter((item) => name === undefined || listing.printable.nameOf(item) === name);
    const now = new Map(items.map((item) => [keyOf(listing, item), item]));
    for (const [key, item] of now) {
      const state = JSON.stringify(item);
      if (shown.get(key)?.state !== state) io.out(line(item));
      shown.set(key, { item, state });
    }
    for (const [key, { item }] of [...shown].filter(([key]) => !now.has(key))) {
      shown.delete(key);
      if (listing.names[0] === "sandboxes") io.out(line({ ...(item as object), phase: "Deleted", reason: null }));
    }
  };
  const changes = coalesced(refresh, (error) => io.err(`warning: reading the list again failed: ${error instanceof Error ? error.message : String(error)}\n`));
  const { done } = await startFollowing(session.client, {
    signal: untilInterrupted(),
    onEvent: changes.request,
    onReload: changes.request,
    onDrop: (from) => {
      io.err(dropNotice(from));
      changes.request();
    },
  });
  const first = await read(query);
  show(query, first, io, false);
  widths = first.length > 0 ? columnWidths(listing.printable, first, print) : [];
  for (const item of first) shown.set(keyOf(listing, item), { item, state: JSON.stringify(item) });
  changes.start();
  await done;
}

export function registerGet(program: Command, io: Io): void {
  program
    .command("get")
    .description(`List resources, or show one: ${RESOURCE_NAMES.join(", ")}`)
    .argument("<resource>", `what to list: ${RESOURCE_NAMES.join(", ")} (singular and short names work too: sandbox, sb)`)
    .argument("[name]", "show only this one")
    .option("-A, --all-namespaces", "list every namespace you may see")
    .option("-l, --selector <selector>", "only sandboxes whose labels it picks, in Kubernetes' syntax: team=ml, team!=web, team in (ml,web), !scratch")
    .addOption(new Option("-o, --output <format>", "output format").choices(OUTPUT_FORMATS).default("table"))
    .option("-w, --watch", "after the list, print each change as it happens")
    .action(async (resource: string, name: string | undefined, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<GetOptions>();
      const listing = listingFor(resource);
      const session = openSession(options);
      const namespace = scope(listing, session, options);
      const query: Query = { listing, session, namespace, name, selector: selectorFor(listing, name, options), print: { format: options.output, allNamespaces: listing.namespaced && namespace === undefined, now: new Date(), colour: io.colour } };
      if (options.watch) return watch(query, io);
      show(query, await read(query), io, name !== undefined);
    });
}
