import { PROTOBUF_MEDIA_TYPE } from "./protobuf/kube-protobuf.ts";

// Which representation a request's body is in and which one its client wants back, as the API
// server negotiates them: JSON unless a client prefers protobuf (kubectl and every client-go
// clientset send `Accept: application/vnd.kubernetes.protobuf,application/json` and protobuf
// bodies for built-in kinds), and whether it asks for a server-side table (`kubectl get` sends
// `application/json;as=Table;v=v1;g=meta.k8s.io` first). Tables are made in JSON; other
// transformations (as=PartialObjectMetadata) are passed over for the client's next choice.

export type Encoding = "json" | "protobuf";

interface MediaRange {
  type: string;
  parameters: Map<string, string>;
  quality: number;
}

function parseRange(text: string): MediaRange | null {
  const [type, ...parameters] = text.split(";").map((part) => part.trim());
  if (!type) return null;
  const parsed = new Map<string, string>();
  for (const parameter of parameters) {
    const [name, value = ""] = parameter.split("=").map((part) => part.trim());
    if (name) parsed.set(name.toLowerCase(), value.replace(/^"|"$/g, ""));
  }
  const quality = parsed.has("q") ? Number(parsed.get("q")) : 1;
  parsed.delete("q");
  return { type: type.toLowerCase(), parameters: parsed, quality: Number.isFinite(quality) ? quality : 0 };
}

/** What an answer is written as: its encoding, and whether objects are printed into a Table. */
export interface Representation {
  encoding: Encoding;
  table: boolean;
}

const isJson = (range: MediaRange) => range.type === "application/json" || range.type === "application/*" || range.type === "*/*";

function representationOf(range: MediaRange): Representation | null {
  if (range.quality <= 0) return null;
  const as = range.parameters.get("as");
  if (as === undefined) {
    const encoding = encodingOf(range);
    return encoding ? { encoding, table: false } : null;
  }
  const table = as === "Table" && range.parameters.get("g") === "meta.k8s.io" && range.parameters.get("v") === "v1" && isJson(range);
  return table ? { encoding: "json", table: true } : null;
}

/** The client's most preferred representation this server makes; plain JSON when it names none. */
export function negotiate(accept: string | undefined): Representation {
  const ranges = (accept ?? "").split(",").map(parseRange).filter((range): range is MediaRange => range !== null);
  // Stable: among equal qualities the client's order decides.
  ranges.sort((a, b) => b.quality - a.quality);
  for (const range of ranges) {
    const representation = representationOf(range);
    if (representation) return representation;
  }
  return { encoding: "json", table: false };
}

function encodingOf(range: MediaRange): Encoding | null {
  if (range.parameters.has("as") || range.quality <= 0) return null;
  if (range.type === PROTOBUF_MEDIA_TYPE) return "protobuf";
  if (isJson(range)) return "json";
  return null;
}

/** The encoding of the answer, for answers that are never tables (errors, reviews, subresources). */
export function responseEncoding(accept: string | undefined): Encoding {
  return negotiate(accept).encoding;
}

/** Whether a request body is protobuf, by its Content-Type; every other body is read as JSON. */
export function isProtobufBody(contentType: string | undefined): boolean {
  return parseRange(contentType ?? "")?.type === PROTOBUF_MEDIA_TYPE;
}
