import { isRecord, type KubeObject } from "../../objects.ts";
import { StatusError } from "../../status-error.ts";
import { printerColumnsOf, type PrinterColumn } from "../custom-resources.ts";
import type { ResourceDefinition } from "../resources.ts";
import { BUILT_IN_PRINTERS, since } from "./built-in-printers.ts";
import { findAll, parsePrinterPath } from "./printer-jsonpath.ts";
import { column, nameColumn, type Cell, type ColumnDefinition, type RowCondition, type RowPrinter } from "./table-types.ts";

// Server-side printing (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), as `kubectl get`
// asks for it: the rows of a list, a single object, or each watch event, with the columns the
// API server gives that kind — the built-in printers, a custom resource's additionalPrinterColumns,
// or the default Name and Created At — and, per row, the object as includeObject says.

export type IncludeObject = "None" | "Metadata" | "Object";

export interface TableOptions {
  includeObject: IncludeObject;
  /** Column definitions are left out (each watch event after the first). */
  noHeaders: boolean;
  now: Date;
}

export function includeObjectOf(query: URLSearchParams): IncludeObject {
  const value = query.get("includeObject") ?? "Metadata";
  if (value === "None" || value === "Metadata" || value === "Object") return value;
  throw StatusError.badRequest(`unrecognized includeObject value: ${JSON.stringify(value)}`);
}

/** A custom resource's printer: its Name, then each additionalPrinterColumn, typed as the column says. */
function customResourcePrinter(columns: PrinterColumn[]): RowPrinter {
  const paths = columns.map((one) => parsePrinterPath(one.jsonPath));
  return {
    columns: [nameColumn(), ...columns.map((one) => column(one.name, one.description ?? "", { type: one.type, priority: one.priority ?? 0, format: one.format ?? "" }))],
    cells: (object, now) => [object.metadata.name ?? "", ...columns.map((one, index) => typedCell(one.type, findAll(object, paths[index]!)[0], now))],
  };
}

function typedCell(type: PrinterColumn["type"], value: unknown, now: Date): Cell {
  if (value === undefined || value === null) return null;
  switch (type) {
    case "integer":
      return typeof value === "number" ? Math.trunc(value) : null;
    case "number":
      return typeof value === "number" ? value : null;
    case "boolean":
      return typeof value === "boolean" ? value : null;
    case "date":
      return typeof value === "string" ? (Number.isNaN(Date.parse(value)) ? "<invalid>" : since(value, now)) : null;
    case "string":
      return typeof value === "string" ? value : JSON.stringify(value);
  }
}

/** What the API server's default table convertor prints for a kind it has no printer for. */
const DEFAULT_PRINTER: RowPrinter = {
  columns: [nameColumn(), column("Created At", "CreationTimestamp is a timestamp representing the server time when this object was created.", { type: "date" })],
  cells: (object) => [object.metadata.name ?? "", typeof object.metadata.creationTimestamp === "string" ? object.metadata.creationTimestamp : null],
};

export function printerFor(definition: ResourceDefinition, version: string): RowPrinter {
  if (definition.customResourceDefinition) return customResourcePrinter(printerColumnsOf(definition.customResourceDefinition, version));
  return BUILT_IN_PRINTERS[`${definition.group}/${definition.resource}`] ?? DEFAULT_PRINTER;
}

function rowObject(object: KubeObject, include: IncludeObject): KubeObject | undefined {
  if (include === "None") return undefined;
  if (include === "Object") return object;
  return { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: object.metadata };
}

export interface Table {
  kind: "Table";
  apiVersion: "meta.k8s.io/v1";
  metadata: Record<string, unknown>;
  columnDefinitions?: ColumnDefinition[];
  rows: { cells: Cell[]; conditions?: RowCondition[]; object?: KubeObject }[];
}

/** The table of `objects` (as the client's version shows them), with the list's metadata when it is a list. */
export function tableOf(printer: RowPrinter, objects: KubeObject[], listMetadata: Record<string, unknown>, options: TableOptions): Table {
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: listMetadata,
    ...(options.noHeaders ? {} : { columnDefinitions: printer.columns }),
    rows: objects.map((object) => {
      const conditions = printer.conditions?.(object) ?? [];
      const included = rowObject(object, options.includeObject);
      return { cells: printer.cells(object, options.now), ...(conditions.length > 0 ? { conditions } : {}), ...(included ? { object: included } : {}) };
    }),
  };
}

/** A list answer (kind …List, metadata, items) as a table. */
export function tableOfList(printer: RowPrinter, list: unknown, options: TableOptions): Table {
  const answer = isRecord(list) ? list : {};
  return tableOf(printer, Array.isArray(answer.items) ? (answer.items as KubeObject[]) : [], isRecord(answer.metadata) ? answer.metadata : {}, options);
}
