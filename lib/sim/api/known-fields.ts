import { isRecord } from "../objects.ts";

// Which fields each served kind declares, derived from the OpenAPI v3 documents the cluster
// publishes (npm run generate:openapi writes both), without their descriptions: what the API
// server's decoder and pruning know when they drop or refuse an unknown field.

/**
 * A schema reduced to its field names: the name of a shared schema, or an object whose
 * `fields` are the known ones, whose `values` is what a map holds (or any field not listed),
 * and whose `items` is what a list holds. `{}` takes anything: scalars, free-form objects,
 * `x-kubernetes-preserve-unknown-fields`, embedded resources.
 */
export type FieldsNode = string | { fields?: Record<string, FieldsNode>; values?: FieldsNode; items?: FieldsNode };

export interface GroupVersionFields {
  /** Kind → the shared schema that describes it. */
  kinds: Record<string, string>;
  schemas: Record<string, FieldsNode>;
}

/** Group version path (`api/v1`, `apis/apps/v1`) → its kinds' fields. */
export type KnownFields = Record<string, GroupVersionFields>;

const REF_PREFIX = "#/components/schemas/";

function reduce(schema: Record<string, unknown>, reached: Set<string>): FieldsNode {
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.slice(REF_PREFIX.length);
    reached.add(name);
    return name;
  }
  const allOf = Array.isArray(schema.allOf) ? schema.allOf.filter(isRecord) : [];
  if (allOf.length === 1) return reduce(allOf[0]!, reached);
  if (schema["x-kubernetes-preserve-unknown-fields"] === true || schema["x-kubernetes-embedded-resource"] === true) return {};
  const node: Exclude<FieldsNode, string> = {};
  if (isRecord(schema.properties)) {
    node.fields = Object.fromEntries(
      Object.entries(schema.properties).filter(([, field]) => isRecord(field)).map(([name, field]) => [name, reduce(field as Record<string, unknown>, reached)]),
    );
  }
  if (isRecord(schema.additionalProperties)) node.values = reduce(schema.additionalProperties, reached);
  else if (schema.additionalProperties === true && node.fields) node.values = {};
  if (isRecord(schema.items)) node.items = reduce(schema.items, reached);
  return node;
}

/** Where a group version's document is published: `api/v1`, `apis/apps/v1`. */
export function groupVersionPath(group: string, version: string): string {
  return group === "" ? `api/${version}` : `apis/${group}/${version}`;
}

/**
 * The fields of every kind of one group version, from its document's `components.schemas`
 * (which also describe kinds of other groups, such as autoscaling's Scale: those are left out).
 */
export function deriveGroupVersionFields(path: string, schemas: Record<string, unknown>): GroupVersionFields {
  const kinds: Record<string, string> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    if (!isRecord(schema) || !Array.isArray(schema["x-kubernetes-group-version-kind"])) continue;
    for (const gvk of schema["x-kubernetes-group-version-kind"].filter(isRecord)) {
      if (groupVersionPath(String(gvk.group), String(gvk.version)) === path) kinds[String(gvk.kind)] = name;
    }
  }
  const reduced: Record<string, FieldsNode> = {};
  const pending = Object.values(kinds);
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const schema = schemas[name];
    if (Object.hasOwn(reduced, name) || !isRecord(schema)) continue;
    const reached = new Set<string>();
    reduced[name] = reduce(schema, reached);
    pending.push(...reached);
  }
  const sorted = Object.fromEntries(Object.entries(reduced).sort(([a], [b]) => a.localeCompare(b)));
  return { kinds: Object.fromEntries(Object.entries(kinds).sort(([a], [b]) => a.localeCompare(b))), schemas: sorted };
}

/** The known fields of every published v3 document (as generated: path → `{ document }` text). */
export function deriveKnownFields(documents: Record<string, { document: string }>): KnownFields {
  return Object.fromEntries(
    Object.entries(documents).map(([path, { document }]) => {
      const parsed = JSON.parse(document) as { components?: { schemas?: Record<string, unknown> } };
      return [path, deriveGroupVersionFields(path, parsed.components?.schemas ?? {})];
    }),
  );
}
