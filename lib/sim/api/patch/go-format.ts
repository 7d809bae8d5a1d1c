// Go's fmt rendering of decoded JSON (map[string]interface{}, []interface{}, int64, float64,
// string, bool, nil), so that error messages read exactly as the apiserver's do, e.g.
// "map: map[image:nginx] does not contain declared merge key: name".
//
// The apiserver decodes patches with integers preserved (int64) and floats as float64; a JSON
// number here is an int64 when it is an integer, a float64 otherwise.

import { isJsonObject, type JsonValue } from "./json-value.ts";

/**
 * %v of a float64 is strconv's 'g' with the shortest digits, and for the shortest form Go decides
 * on the exponent form with precision 6: exponent < -4 or >= 6 prints as 1.5e+06.
 */
function goFloat(n: number): string {
  if (n === 0) return Object.is(n, -0) ? "-0" : "0";
  const [mantissa = "0", exp = "0"] = n.toExponential().split("e");
  const exponent = Number(exp);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? "-" : "+";
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return String(n);
}

function goNumber(n: number): string {
  // Integers come out of the apiserver's decoder as int64 and print in full.
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  return goFloat(n);
}

/** fmt's %v of a decoded JSON value. Map keys are printed sorted, as fmt does. */
export function goValue(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return "<nil>";
  if (Array.isArray(value)) return `[${value.map((item) => goValue(item)).join(" ")}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `map[${keys.map((key) => `${key}:${goValue(value[key])}`).join(" ")}]`;
  }
  if (typeof value === "number") return goNumber(value);
  return String(value);
}

/** reflect.TypeOf(v).String() for a decoded JSON value. */
export function goTypeName(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return "%!s(<nil>)";
  if (Array.isArray(value)) return "[]interface {}";
  if (isJsonObject(value)) return "map[string]interface {}";
  if (typeof value === "number") return Number.isInteger(value) ? "int64" : "float64";
  if (typeof value === "boolean") return "bool";
  return "string";
}

/** fmt's %s of a decoded JSON value: strings as they are, anything else flagged as Go does. */
export function goString(value: JsonValue | undefined): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "%!s(<nil>)";
  if (Array.isArray(value) || isJsonObject(value)) return goValue(value);
  return `%!s(${goTypeName(value)}=${goValue(value)})`;
}
