import { PROTOBUF_MEDIA_TYPE } from "./protobuf/kube-protobuf.ts";

// Which representation a request's body is in and which one its client wants back, as the API
// server negotiates them: JSON unless a client prefers protobuf (kubectl and every client-go
// clientset send `Accept: application/vnd.kubernetes.protobuf,application/json` and protobuf
// bodies for built-in kinds). Server-side tables (`;as=Table`) are not served yet, so ranges
// asking for them are passed over and the client's plain fallback is taken.

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

function encodingOf(range: MediaRange): Encoding | null {
  // A transformation (as=Table, as=PartialObjectMetadata) is not something this server makes.
  if (range.parameters.has("as") || range.quality <= 0) return null;
  if (range.type === PROTOBUF_MEDIA_TYPE) return "protobuf";
  if (range.type === "application/json" || range.type === "application/*" || range.type === "*/*") return "json";
  return null;
}

/** The representation of the answer: the client's most preferred one this server makes; JSON when it names none. */
export function responseEncoding(accept: string | undefined): Encoding {
  const ranges = (accept ?? "").split(",").map(parseRange).filter((range): range is MediaRange => range !== null);
  // Stable: among equal qualities the client's order decides.
  ranges.sort((a, b) => b.quality - a.quality);
  for (const range of ranges) {
    const encoding = encodingOf(range);
    if (encoding) return encoding;
  }
  return "json";
}

/** Whether a request body is protobuf, by its Content-Type; every other body is read as JSON. */
export function isProtobufBody(contentType: string | undefined): boolean {
  return parseRange(contentType ?? "")?.type === PROTOBUF_MEDIA_TYPE;
}
