import protobuf from "protobufjs/minimal.js";
import { isRecord, type KubeObject } from "../../objects.ts";
import { kubeSchema, type KubeSchema } from "./kube-schema.ts";
import { ENVELOPE_MAGIC, MessageCodec, ProtobufCodecError, startsWithEnvelope } from "./message-codec.ts";

// Kubernetes objects in `application/vnd.kubernetes.protobuf`, as the API server reads and
// writes them: the magic `k8s\0`, then a runtime.Unknown whose typeMeta (1: apiVersion, 2: kind)
// names the message and whose raw (2) holds it. A watch in protobuf is a stream of frames, each a
// 4-byte big-endian length and an envelope of a WatchEvent (1: type, 2: a RawExtension whose
// raw (1) is the object's own envelope). The WatchEvent's envelope names no type: WatchEvent has
// no TypeMeta for the API server's encoder to fill in, and clients decode it as a WatchEvent.

export const PROTOBUF_MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

const { Reader, Writer } = protobuf;

export { ProtobufCodecError };

export class KubeProtobuf {
  private readonly codec: MessageCodec;

  constructor(private readonly schema: KubeSchema = kubeSchema()) {
    this.codec = new MessageCodec(schema, (bytes) => this.decode(bytes));
  }

  /** Whether objects of this kind have a protobuf form (built-in kinds do, custom resources do not). */
  canEncode(apiVersion: string, kind: string): boolean {
    return this.schema.messageOf(apiVersion, kind) !== undefined;
  }

  /** An object from its envelope, with the apiVersion and kind the envelope names. */
  decode(bytes: Uint8Array): KubeObject {
    const { apiVersion, kind, raw } = readEnvelope(bytes);
    if (!apiVersion || !kind) throw new ProtobufCodecError("the protobuf envelope names no apiVersion or kind");
    const type = this.schema.messageOf(apiVersion, kind);
    if (!type) throw new ProtobufCodecError(`no protobuf message is known for ${apiVersion}, Kind=${kind}`);
    const body = this.codec.decode(type, raw);
    if (!isRecord(body)) throw new ProtobufCodecError(`${kind} is a list, not an object`);
    return { apiVersion, kind, ...body } as KubeObject;
  }

  /** The envelope of an object, by the apiVersion and kind it carries. */
  encode(object: KubeObject): Uint8Array {
    const { apiVersion, kind } = object;
    const type = apiVersion && kind ? this.schema.messageOf(apiVersion, kind) : undefined;
    if (!type) throw new ProtobufCodecError(`${apiVersion}, Kind=${kind} has no protobuf form`);
    return envelope(apiVersion!, kind!, this.codec.encode(type, object));
  }

  /** One frame of a protobuf watch. */
  watchFrame(type: string, object: KubeObject): Uint8Array {
    const event = Writer.create();
    event.uint32((1 << 3) | 2).string(type);
    event.uint32((2 << 3) | 2).fork().uint32((1 << 3) | 2).bytes(this.encode(object)).ldelim();
    const body = envelope("", "", event.finish());
    const frame = new Uint8Array(4 + body.length);
    new DataView(frame.buffer).setUint32(0, body.length);
    frame.set(body, 4);
    return frame;
  }

  /** A watch frame's event (without its length), as a client reads it. */
  decodeWatchEvent(bytes: Uint8Array): { type: string; object: KubeObject } {
    const event = this.codec.decode(WATCH_EVENT, readEnvelope(bytes).raw);
    if (!isRecord(event) || typeof event.type !== "string" || !isRecord(event.object)) throw new ProtobufCodecError("a watch event without a type or an object");
    return { type: event.type, object: event.object as KubeObject };
  }
}

const WATCH_EVENT = "k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent";

function envelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const unknown = Writer.create();
  unknown.uint32((1 << 3) | 2).fork().uint32((1 << 3) | 2).string(apiVersion).uint32((2 << 3) | 2).string(kind).ldelim();
  unknown.uint32((2 << 3) | 2).bytes(raw);
  const body = unknown.finish();
  const out = new Uint8Array(ENVELOPE_MAGIC.length + body.length);
  out.set(ENVELOPE_MAGIC, 0);
  out.set(body, ENVELOPE_MAGIC.length);
  return out;
}

function readEnvelope(enveloped: Uint8Array): { apiVersion: string; kind: string; raw: Uint8Array } {
  if (!startsWithEnvelope(enveloped)) throw new ProtobufCodecError("the body does not start with the protobuf envelope's magic bytes");
  const reader = Reader.create(enveloped.subarray(ENVELOPE_MAGIC.length));
  let apiVersion = "";
  let kind = "";
  let raw: Uint8Array = new Uint8Array();
  let encoding = "";
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag === ((1 << 3) | 2)) {
        const typeMeta = Reader.create(reader.bytes());
        while (typeMeta.pos < typeMeta.len) {
          const inner = typeMeta.uint32();
          if (inner === ((1 << 3) | 2)) apiVersion = typeMeta.string();
          else if (inner === ((2 << 3) | 2)) kind = typeMeta.string();
          else typeMeta.skipType(inner & 7);
        }
      } else if (tag === ((2 << 3) | 2)) raw = reader.bytes();
      else if (tag === ((3 << 3) | 2)) encoding = reader.string();
      else reader.skipType(tag & 7);
    }
  } catch (error) {
    throw new ProtobufCodecError(`the protobuf envelope is damaged: ${(error as Error).message}`);
  }
  if (encoding !== "") throw new ProtobufCodecError(`unsupported content encoding ${JSON.stringify(encoding)}`);
  return { apiVersion, kind, raw };
}
