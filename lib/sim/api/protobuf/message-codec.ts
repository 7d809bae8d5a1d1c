import protobuf from "protobufjs/minimal.js";
import { isRecord } from "../../objects.ts";
import { isOwnJsonType, isScalarType, type FieldDescriptor, type KubeSchema, type OwnJsonType, type ScalarType } from "./kube-schema.ts";

// One message between its protobuf bytes and its Kubernetes JSON, driven by the generated schema.
// The JSON is what Kubernetes' own JSON serializer would write for the Go value the bytes carry:
// a zero scalar of an omitempty non-pointer field is left out, a pointer's zero is kept (a
// claim's storageClassName "" and a grace period of 0 mean something), inlined members land in
// the parent, and Time, MicroTime, Quantity, IntOrString and raw JSON take their own forms.

const { Reader, Writer } = protobuf;
type ReaderT = protobuf.Reader;
type WriterT = protobuf.Writer;

/** The embedded form of an object inside a RawExtension (a watch event's object). */
export const ENVELOPE_MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export class ProtobufCodecError extends Error {
  override name = "ProtobufCodecError";
}

type Json = unknown;
type JsonObject = Record<string, Json>;

const WIRE = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;

const wireOf = (type: string): number => {
  switch (type) {
    case "bool":
    case "int32":
    case "int64":
    case "uint32":
    case "uint64":
      return WIRE.varint;
    case "double":
      return WIRE.fixed64;
    case "float":
      return WIRE.fixed32;
    default:
      return WIRE.bytes;
  }
};

const toNumber = (value: protobuf.Long | number): number => (typeof value === "number" ? value : protobuf.util.LongBits.from(value).toNumber());

export function startsWithEnvelope(bytes: Uint8Array): boolean {
  return bytes.length >= ENVELOPE_MAGIC.length && ENVELOPE_MAGIC.every((byte, index) => bytes[index] === byte);
}

/** What a raw JSON field (FieldsV1, RawExtension) holds, given how to read an embedded object. */
export type EmbeddedDecoder = (bytes: Uint8Array) => Json;

export class MessageCodec {
  constructor(
    private readonly schema: KubeSchema,
    /** Reads a RawExtension that holds a protobuf object (its own envelope) rather than JSON. */
    private readonly embedded: EmbeddedDecoder,
  ) {}

  decode(type: string, bytes: Uint8Array): JsonObject | Json[] {
    try {
      return this.readMessage(type, Reader.create(bytes), bytes.length);
    } catch (error) {
      if (error instanceof ProtobufCodecError) throw error;
      throw new ProtobufCodecError(`cannot decode ${shortName(type)}: ${(error as Error).message}`);
    }
  }

  encode(type: string, value: Json): Uint8Array {
    const writer = Writer.create();
    this.writeMessage(type, value, writer, shortName(type));
    return writer.finish();
  }

  // ——— decoding ———

  private readMessage(type: string, reader: ReaderT, length: number): JsonObject | Json[] {
    const descriptor = this.schema.message(type);
    const end = reader.pos + length;
    if (descriptor.listOf !== undefined) {
      const items: Json[] = [];
      while (reader.pos < end) {
        const tag = reader.uint32();
        if (tag >>> 3 === 1) this.readRepeated(descriptor.listOf, tag & 7, reader, items);
        else reader.skipType(tag & 7);
      }
      return items;
    }
    const object: JsonObject = {};
    while (reader.pos < end) {
      const tag = reader.uint32();
      const field = descriptor.byNumber.get(tag >>> 3);
      if (!field) {
        reader.skipType(tag & 7);
        continue;
      }
      this.readField(field, tag & 7, reader, object);
    }
    if (reader.pos !== end) throw new ProtobufCodecError(`${shortName(type)} runs past its length`);
    for (const field of descriptor.fields ?? []) {
      if (field.name !== undefined && field.omitEmpty && !field.pointer && isZeroScalar(field, object[field.name])) delete object[field.name];
    }
    return object;
  }

  private readField(field: FieldDescriptor, wireType: number, reader: ReaderT, into: JsonObject): void {
    if (field.inline) {
      const inlined = this.readMessage(field.type, reader, reader.uint32());
      Object.assign(into, inlined);
      return;
    }
    const name = field.name!;
    if (field.map) {
      const map = (into[name] as JsonObject | undefined) ?? {};
      const [key, value] = this.readMapEntry(field.map.key, field.map.value, reader);
      map[String(key)] = value;
      into[name] = map;
      return;
    }
    if (field.repeated) {
      const list = (into[name] as Json[] | undefined) ?? [];
      this.readRepeated(field.type, wireType, reader, list);
      into[name] = list;
      return;
    }
    const value = this.readValue(field.type, reader);
    // A zero Time is JSON's null, which the embedded cluster's objects write as absence.
    if (value === null) delete into[name];
    else into[name] = value;
  }

  /** One occurrence of a repeated field: one element, or a packed run of scalars. */
  private readRepeated(type: string, wireType: number, reader: ReaderT, list: Json[]): void {
    if (wireType === WIRE.bytes && wireOf(type) !== WIRE.bytes) {
      const end = reader.uint32() + reader.pos;
      while (reader.pos < end) list.push(this.readValue(type, reader));
      return;
    }
    list.push(this.readValue(type, reader));
  }

  private readMapEntry(keyType: string, valueType: string, reader: ReaderT): [Json, Json] {
    const end = reader.uint32() + reader.pos;
    let key: Json = zeroOf(keyType);
    let value: Json = zeroOf(valueType);
    while (reader.pos < end) {
      const tag = reader.uint32();
      if (tag >>> 3 === 1) key = this.readValue(keyType, reader);
      else if (tag >>> 3 === 2) value = this.readValue(valueType, reader);
      else reader.skipType(tag & 7);
    }
    return [key, value];
  }

  private readValue(type: string, reader: ReaderT): Json {
    switch (type as ScalarType) {
      case "string":
        return reader.string();
      case "bool":
        return reader.bool();
      case "int32":
        return reader.int32();
      case "uint32":
        return reader.uint32();
      case "int64":
        return toNumber(reader.int64());
      case "uint64":
        return toNumber(reader.uint64());
      case "double":
        return reader.double();
      case "float":
        return reader.float();
      case "bytes":
        return Buffer.from(reader.bytes()).toString("base64");
    }
    if (isOwnJsonType(type)) return this.readOwnJson(type, reader.bytes());
    return this.readMessage(type, reader, reader.uint32());
  }

  private readOwnJson(type: OwnJsonType, bytes: Uint8Array): Json {
    const { varints, texts } = scalarFields(bytes);
    const text = (number: number) => Buffer.from(texts.get(number) ?? []).toString("utf8");
    switch (type) {
      case "time":
        // Kubernetes keeps seconds only; an empty Time is the zero time, written as null.
        return bytes.length === 0 ? null : rfc3339(varints.get(1) ?? 0, 0);
      case "microTime":
        return bytes.length === 0 ? null : rfc3339(varints.get(1) ?? 0, varints.get(2) ?? 0, 6);
      case "quantity":
        return texts.has(1) ? text(1) : "0";
      case "intOrString":
        return varints.get(1) === 1 ? text(3) : (varints.get(2) ?? 0);
      case "rawJSON": {
        const raw = texts.get(1);
        if (raw === undefined || raw.length === 0) return null;
        if (startsWithEnvelope(raw)) return this.embedded(raw);
        return JSON.parse(Buffer.from(raw).toString("utf8")) as Json;
      }
    }
  }

  // ——— encoding ———

  private writeMessage(type: string, value: Json, writer: WriterT, path: string): void {
    const descriptor = this.schema.message(type);
    if (descriptor.listOf !== undefined) {
      if (!Array.isArray(value)) throw new ProtobufCodecError(`${path}: expected a list`);
      for (const [index, item] of value.entries()) this.writeField(1, descriptor.listOf, item, writer, `${path}[${index}]`);
      return;
    }
    if (!isRecord(value)) throw new ProtobufCodecError(`${path}: expected an object`);
    for (const field of descriptor.fields ?? []) {
      if (field.inline) {
        const inlined = Writer.create();
        this.writeMessage(field.type, value, inlined, path);
        const bytes = inlined.finish();
        if (bytes.length > 0) writer.uint32((field.number << 3) | WIRE.bytes).bytes(bytes);
        continue;
      }
      const member = value[field.name!];
      if (member === undefined || member === null) continue;
      const where = `${path}.${field.name}`;
      if (field.map) {
        if (!isRecord(member)) throw new ProtobufCodecError(`${where}: expected an object`);
        for (const key of Object.keys(member).sort()) {
          const entry = Writer.create();
          this.writeField(1, field.map.key, key, entry, where);
          if (member[key] !== null) this.writeField(2, field.map.value, member[key], entry, `${where}[${key}]`);
          writer.uint32((field.number << 3) | WIRE.bytes).bytes(entry.finish());
        }
      } else if (field.repeated) {
        if (!Array.isArray(member)) throw new ProtobufCodecError(`${where}: expected a list`);
        for (const [index, item] of member.entries()) this.writeField(field.number, field.type, item, writer, `${where}[${index}]`);
      } else {
        this.writeField(field.number, field.type, member, writer, where);
      }
    }
  }

  private writeField(number: number, type: string, value: Json, writer: WriterT, path: string): void {
    const tag = (number << 3) | wireOf(type);
    const expect = (ok: boolean, what: string) => {
      if (!ok) throw new ProtobufCodecError(`${path}: expected ${what}, found ${JSON.stringify(value)}`);
    };
    switch (type as ScalarType) {
      case "string":
        expect(typeof value === "string", "a string");
        writer.uint32(tag).string(value as string);
        return;
      case "bool":
        expect(typeof value === "boolean", "true or false");
        writer.uint32(tag).bool(value as boolean);
        return;
      case "int32":
      case "int64":
      case "uint32":
      case "uint64":
      case "double":
      case "float":
        expect(typeof value === "number" && (Number.isInteger(value) || type === "double" || type === "float"), type === "double" || type === "float" ? "a number" : "an integer");
        writer.uint32(tag)[type as "int32" | "int64" | "uint32" | "uint64" | "double" | "float"](value as number);
        return;
      case "bytes":
        expect(typeof value === "string", "base64 text");
        writer.uint32(tag).bytes(Buffer.from(value as string, "base64"));
        return;
    }
    const nested = Writer.create();
    if (isOwnJsonType(type)) this.writeOwnJson(type, value, nested, path);
    else this.writeMessage(type, value, nested, path);
    writer.uint32(tag).bytes(nested.finish());
  }

  private writeOwnJson(type: OwnJsonType, value: Json, writer: WriterT, path: string): void {
    switch (type) {
      case "time":
      case "microTime": {
        const { seconds, nanos } = parseRfc3339(value, path);
        if (seconds !== 0) writer.uint32((1 << 3) | WIRE.varint).int64(seconds);
        if (type === "microTime" && nanos !== 0) writer.uint32((2 << 3) | WIRE.varint).int32(nanos);
        return;
      }
      case "quantity":
        if (typeof value !== "string" && typeof value !== "number") throw new ProtobufCodecError(`${path}: expected a quantity, found ${JSON.stringify(value)}`);
        writer.uint32((1 << 3) | WIRE.bytes).string(String(value));
        return;
      case "intOrString":
        if (typeof value === "number" && Number.isInteger(value)) writer.uint32((1 << 3) | WIRE.varint).int64(0).uint32((2 << 3) | WIRE.varint).int32(value);
        else if (typeof value === "string") writer.uint32((1 << 3) | WIRE.varint).int64(1).uint32((3 << 3) | WIRE.bytes).string(value);
        else throw new ProtobufCodecError(`${path}: expected an integer or a string, found ${JSON.stringify(value)}`);
        return;
      case "rawJSON":
        writer.uint32((1 << 3) | WIRE.bytes).bytes(Buffer.from(JSON.stringify(value), "utf8"));
        return;
    }
  }
}

function shortName(type: string): string {
  return type.split(".").slice(-2).join(".");
}

function isZeroScalar(field: FieldDescriptor, value: Json): boolean {
  return !field.repeated && !field.map && isScalarType(field.type) && value === zeroOf(field.type);
}

function zeroOf(type: string): Json {
  switch (type) {
    case "string":
    case "bytes":
      return "";
    case "bool":
      return false;
    case "quantity":
      return "0";
    case "time":
    case "microTime":
    case "rawJSON":
      return null;
    case "int32":
    case "int64":
    case "uint32":
    case "uint64":
    case "double":
    case "float":
    case "intOrString":
      return 0;
    default:
      return {};
  }
}

/** The fields of a small message (Timestamp, Quantity, IntOrString, RawExtension) by number. */
function scalarFields(bytes: Uint8Array): { varints: Map<number, number>; texts: Map<number, Uint8Array> } {
  const reader = Reader.create(bytes);
  const varints = new Map<number, number>();
  const texts = new Map<number, Uint8Array>();
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if ((tag & 7) === WIRE.varint) varints.set(tag >>> 3, toNumber(reader.int64()));
    else if ((tag & 7) === WIRE.bytes) texts.set(tag >>> 3, reader.bytes());
    else reader.skipType(tag & 7);
  }
  return { varints, texts };
}

/** RFC 3339 in UTC as Go's time package writes it for Kubernetes: whole seconds, or `digits` of fraction. */
function rfc3339(seconds: number, nanos: number, digits = 0): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (digits === 0) return `${base}Z`;
  return `${base}.${String(nanos).padStart(9, "0").slice(0, digits)}Z`;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

function parseRfc3339(value: Json, path: string): { seconds: number; nanos: number } {
  const match = typeof value === "string" ? RFC3339.exec(value) : null;
  if (!match) throw new ProtobufCodecError(`${path}: expected an RFC 3339 time, found ${JSON.stringify(value)}`);
  const milliseconds = Date.parse(`${match[1]}${match[3]}`);
  if (Number.isNaN(milliseconds)) throw new ProtobufCodecError(`${path}: not a time: ${JSON.stringify(value)}`);
  return { seconds: Math.floor(milliseconds / 1000), nanos: Number((match[2] ?? "").padEnd(9, "0")) };
}
