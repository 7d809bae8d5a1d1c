import type { KubeObject } from "../../objects.ts";

// meta.k8s.io/v1 Table, as the API server answers `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`.

export type ColumnType = "string" | "integer" | "number" | "boolean" | "date";

export interface ColumnDefinition {
  name: string;
  type: ColumnType;
  format: string;
  description: string;
  /** 0: always shown; more: only with -o wide. */
  priority: number;
}

export type Cell = string | number | boolean | null;

export interface RowCondition {
  type: "Completed";
  status: "True";
  reason: string;
  message: string;
}

/** How one kind's objects become rows. */
export interface RowPrinter {
  columns: ColumnDefinition[];
  cells(object: KubeObject, now: Date): Cell[];
  conditions?(object: KubeObject): RowCondition[];
}

export const column = (name: string, description: string, options: { type?: ColumnType; priority?: number; format?: string } = {}): ColumnDefinition => ({
  name,
  type: options.type ?? "string",
  format: options.format ?? "",
  description,
  priority: options.priority ?? 0,
});

export const nameColumn = () => column("Name", "Name must be unique within a namespace.", { format: "name" });
export const ageColumn = () => column("Age", "CreationTimestamp is a timestamp representing the server time when this object was created.");
