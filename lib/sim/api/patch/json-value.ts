// The JSON values a patch reads and writes, and the few structural helpers every patch type
// needs. Everything here is pure: inputs are never mutated.

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON kind of a value, as Go's decoder sees it (object, array, string, number, bool, null). */
export type JsonKind = "object" | "array" | "string" | "number" | "bool" | "null";

export function jsonKind(value: unknown): JsonKind {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "bool";
    default:
      return "object";
  }
}

/**
 * Copies a value that came from JSON.parse (or is meant to be sent as JSON) and checks it is JSON
 * on the way: functions, symbols, bigints, non-finite numbers and class instances are refused.
 */
export function toJsonValue(value: unknown, path = ""): JsonValue {
  if (value === null) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`not a JSON number at ${path || "/"}: ${value}`);
      return value;
    case "object": {
      if (Array.isArray(value)) return value.map((item, index) => toJsonValue(item, `${path}/${index}`));
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw new TypeError(`not a plain JSON object at ${path || "/"}`);
      const out: JsonObject = {};
      for (const [key, item] of Object.entries(value)) {
        if (item === undefined) continue;
        setMember(out, key, toJsonValue(item, `${path}/${key}`));
      }
      return out;
    }
    default:
      throw new TypeError(`not a JSON value at ${path || "/"}: ${typeof value}`);
  }
}

export function cloneJson<T extends JsonValue>(value: T): T {
  return structuredClone(value);
}

/** Structural equality of two JSON values (object key order does not matter). */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, index) => jsonEqual(item, b[index] ?? null));
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key] ?? null, b[key] ?? null));
  }
  return false;
}

/**
 * Sets an own member. Plain assignment would treat a "__proto__" key from a request body as the
 * prototype setter instead of a member.
 */
export function setMember(object: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__") Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}
