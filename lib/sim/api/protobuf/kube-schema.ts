import { z } from "zod";
import generated from "./generated/kube-messages.json" with { type: "json" };

// The protobuf schema of the built-in kinds, as scripts/kube-protobuf generates it from the
// k8s.io/api release the embedded cluster follows (`npm run generate:kube-protobuf`): for each
// message its fields' numbers and types, and what Kubernetes' JSON needs besides (pointers,
// omitempty, inlined members); for each apiVersion and kind, the message that carries it.

/** Types whose JSON is not a message's fields (metav1.Time is an RFC 3339 string, and so on). */
export const OWN_JSON_TYPES = ["time", "microTime", "quantity", "intOrString", "rawJSON"] as const;
export const SCALAR_TYPES = ["string", "bool", "int32", "int64", "uint32", "uint64", "double", "float", "bytes"] as const;

export type OwnJsonType = (typeof OWN_JSON_TYPES)[number];
export type ScalarType = (typeof SCALAR_TYPES)[number];

const fieldSchema = z.object({
  /** The JSON member; absent for a field JSON inlines into its parent. */
  name: z.string().optional(),
  number: z.number().int().positive(),
  /** A scalar, an own-JSON type, "map", or a message's name. */
  type: z.string(),
  repeated: z.boolean().optional(),
  map: z.object({ key: z.string(), value: z.string() }).optional(),
  /** A Go pointer: present even when zero. */
  pointer: z.boolean().optional(),
  /** Go's omitempty: a zero scalar is left out of the JSON. */
  omitEmpty: z.boolean().optional(),
  inline: z.boolean().optional(),
});

const messageSchema = z.object({
  fields: z.array(fieldSchema).optional(),
  /** A named list type: in protobuf a message whose repeated field 1 holds the items, in JSON the bare list. */
  listOf: z.string().optional(),
});

const kubeSchemaFile = z.object({
  source: z.string(),
  kinds: z.record(z.string(), z.record(z.string(), z.string())),
  messages: z.record(z.string(), messageSchema),
});

export type FieldDescriptor = z.infer<typeof fieldSchema>;
export type MessageDescriptor = z.infer<typeof messageSchema>;

export interface KubeSchema {
  /** The Go modules it was generated from. */
  source: string;
  message(name: string): MessageDescriptor & { byNumber: Map<number, FieldDescriptor> };
  /** The message of an apiVersion and kind, or undefined when the kind has no protobuf form (custom resources). */
  messageOf(apiVersion: string, kind: string): string | undefined;
}

export const isOwnJsonType = (type: string): type is OwnJsonType => (OWN_JSON_TYPES as readonly string[]).includes(type);
export const isScalarType = (type: string): type is ScalarType => (SCALAR_TYPES as readonly string[]).includes(type);

export function kubeSchemaFrom(data: unknown): KubeSchema {
  const file = kubeSchemaFile.parse(data);
  const indexed = new Map<string, MessageDescriptor & { byNumber: Map<number, FieldDescriptor> }>();
  for (const [name, descriptor] of Object.entries(file.messages)) {
    indexed.set(name, { ...descriptor, byNumber: new Map((descriptor.fields ?? []).map((field) => [field.number, field])) });
  }
  for (const [name, descriptor] of indexed) {
    for (const field of descriptor.fields ?? []) {
      for (const type of field.map ? [field.map.key, field.map.value] : [field.type]) {
        if (type !== "map" && !isScalarType(type) && !isOwnJsonType(type) && !indexed.has(type)) {
          throw new Error(`protobuf schema: ${name}.${field.name ?? field.number} is of an unknown type ${type}`);
        }
      }
    }
  }
  return {
    source: file.source,
    message(name) {
      const found = indexed.get(name);
      if (!found) throw new Error(`protobuf schema: no message ${name}`);
      return found;
    },
    messageOf: (apiVersion, kind) => file.kinds[apiVersion]?.[kind],
  };
}

let loaded: KubeSchema | undefined;

/** The schema of the k8s.io/api release the embedded cluster follows, read once. */
export function kubeSchema(): KubeSchema {
  loaded ??= kubeSchemaFrom(generated);
  return loaded;
}
