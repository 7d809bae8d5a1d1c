import { isRecord, type KubeObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import { type FieldsNode, type GroupVersionFields, groupVersionPath, type KnownFields } from "./known-fields.ts";
import type { ResourceDefinition } from "./resources.ts";

// Unknown fields in a create, update or patch, as the API server treats them: a built-in
// kind's decoder drops what its Go type lacks and a custom resource's schema prunes what it
// does not declare; `fieldValidation` says whether that is said (Warn, the default), refused
// (Strict, what kubectl sends) or passed over (Ignore). Which fields are known comes from the
// OpenAPI v3 documents the cluster publishes (lib/sim/api/known-fields.ts), so both agree.

export const FIELD_VALIDATIONS = ["Ignore", "Warn", "Strict"] as const;
export type FieldValidation = (typeof FIELD_VALIDATIONS)[number];

/** A kind's fields as the checks walk them: FieldsNode with shared schemas resolved, lazily. */
interface Shape {
  fields?: Map<string, Shape>;
  values?: Shape;
  items?: Shape;
}

function shapesOf(known: GroupVersionFields): Map<string, Shape> {
  const named = new Map<string, Shape>();
  const resolve = (node: FieldsNode): Shape => {
    if (typeof node !== "string") {
      return {
        ...(node.fields ? { fields: new Map(Object.entries(node.fields).map(([name, field]) => [name, resolve(field)])) } : {}),
        ...(node.values ? { values: resolve(node.values) } : {}),
        ...(node.items ? { items: resolve(node.items) } : {}),
      };
    }
    let shape = named.get(node);
    if (!shape) {
      // Registered before it is filled in: schemas refer to themselves (JSONSchemaProps does).
      shape = {};
      named.set(node, shape);
      Object.assign(shape, resolve(known.schemas[node] ?? {}));
    }
    return shape;
  };
  return new Map(Object.entries(known.kinds).map(([kind, schema]) => [kind, resolve(schema)]));
}

let knownFields: Promise<KnownFields> | undefined;
const shapes = new Map<string, Map<string, Shape>>();

/** Loaded on the first write, resolved per group version on its first write, then kept. */
async function kindsOf(group: string, version: string): Promise<Map<string, Shape>> {
  knownFields ??= import("./generated/known-fields.json", { with: { type: "json" } }).then((module) => module.default as KnownFields);
  const path = groupVersionPath(group, version);
  let kinds = shapes.get(path);
  if (!kinds) {
    const known = (await knownFields)[path];
    kinds = known ? shapesOf(known) : new Map();
    shapes.set(path, kinds);
  }
  return kinds;
}

/** Paths of the fields `shape` does not know, in `spec.containers[0].x` form; removed when `prune`. */
function collectUnknown(value: unknown, shape: Shape, path: string, found: string[], prune: boolean): void {
  if (Array.isArray(value)) {
    if (shape.items) value.forEach((item, index) => collectUnknown(item, shape.items!, `${path}[${index}]`, found, prune));
    return;
  }
  if (!isRecord(value) || (!shape.fields && !shape.values)) return;
  for (const [key, field] of Object.entries(value)) {
    const fieldPath = path === "" ? key : `${path}.${key}`;
    const known = shape.fields?.get(key) ?? shape.values;
    if (known) {
      collectUnknown(field, known, fieldPath, found, prune);
      continue;
    }
    found.push(fieldPath);
    if (prune) delete value[key];
  }
}

/** The `fieldValidation` of a request: Warn when absent; anything else is refused by name. */
export function fieldValidationOf(query: URLSearchParams, options: "CreateOptions" | "UpdateOptions" | "PatchOptions"): FieldValidation {
  const asked = query.get("fieldValidation");
  if (asked === null || asked === "") return "Warn";
  if ((FIELD_VALIDATIONS as readonly string[]).includes(asked)) return asked as FieldValidation;
  throw StatusError.invalid(options, "meta.k8s.io", "", [
    { reason: "FieldValueNotSupported", field: "fieldValidation", message: `Unsupported value: ${JSON.stringify(asked)}: supported values: "Ignore", "Strict", "Warn"` },
  ]);
}

/** Readies the field checks of a group version, so that a write can then run without waiting. */
export async function prepareFieldValidation(definition: ResourceDefinition, version: string): Promise<FieldCheck> {
  const shape = (await kindsOf(definition.group, version)).get(definition.kind);
  return new FieldCheck(definition.kind, version, shape);
}

export class FieldCheck {
  constructor(
    private readonly kind: string,
    private readonly version: string,
    private readonly shape: Shape | undefined,
  ) {}

  /**
   * Drops the fields of `object` its kind does not declare, or refuses them under Strict as
   * the decoder does (400); answers the warnings to send under Warn.
   */
  apply(object: KubeObject, validation: FieldValidation): string[] {
    if (!this.shape) return [];
    const unknown: string[] = [];
    collectUnknown(object, this.shape, "", unknown, validation !== "Strict");
    if (unknown.length === 0) return [];
    const described = unknown.map((path) => `unknown field ${JSON.stringify(path)}`);
    if (validation === "Strict") {
      throw StatusError.badRequest(`${this.kind} in version ${JSON.stringify(this.version)} cannot be handled as a ${this.kind}: strict decoding error: ${described.join(", ")}`);
    }
    return validation === "Warn" ? described : [];
  }
}
