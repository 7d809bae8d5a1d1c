// Label key and value validation with apimachinery's messages
// (k8s.io/apimachinery/pkg/api/validate/content: IsLabelKey, IsLabelValue, IsDNS1123Subdomain),
// and the field.Error rendering the label parser reports them with.

const byteLength = (text: string) => new TextEncoder().encode(text).length;

/** content.RegexError */
function regexError(message: string, regex: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${regex}')`;
  let out = `${message} (e.g. `;
  examples.forEach((example, index) => {
    if (index > 0) out += " or ";
    out += `'${example}', `;
  });
  return `${out}regex used for validation is '${regex}')`;
}

const maxLenError = (length: number) => `must be no more than ${length} bytes`;
const EMPTY_ERROR = "must be non-empty";

const DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERROR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

function isDNS1123Subdomain(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > 253) errors.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN.test(value)) errors.push(regexError(DNS1123_SUBDOMAIN_ERROR, DNS1123_SUBDOMAIN_FMT, "example.com"));
  return errors;
}

const LABEL_KEY_CHAR_FMT = "[A-Za-z0-9]";
const LABEL_KEY_EXT_CHAR_FMT = "[-A-Za-z0-9_.]";
const LABEL_KEY_FMT = `(${LABEL_KEY_CHAR_FMT}${LABEL_KEY_EXT_CHAR_FMT}*)?${LABEL_KEY_CHAR_FMT}`;
const LABEL_KEY_ERROR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY = new RegExp(`^${LABEL_KEY_FMT}$`);

/** content.IsLabelKey (a "qualified name"): the error strings, none when valid. */
export function labelKeyErrors(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split("/");
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? "";
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? "";
    name = parts[1] ?? "";
    if (prefix.length === 0) errors.push(`prefix part ${EMPTY_ERROR}`);
    else errors.push(...isDNS1123Subdomain(prefix).map((message) => `prefix part ${message}`));
  } else {
    return [
      `a valid label key ${regexError(LABEL_KEY_ERROR, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errors.push(`name part ${EMPTY_ERROR}`);
  else if (byteLength(name) > 63) errors.push(`name part ${maxLenError(63)}`);
  if (!LABEL_KEY.test(name)) errors.push(`name part ${regexError(LABEL_KEY_ERROR, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")}`);
  return errors;
}

const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const LABEL_VALUE_ERROR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);

/** content.IsLabelValue: the error strings, none when valid. */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > 63) errors.push(maxLenError(63));
  if (!LABEL_VALUE.test(value)) errors.push(regexError(LABEL_VALUE_ERROR, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
  return errors;
}

/** strconv.Quote, as fmt's %q prints a string. */
export function goQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if (char === "\n") out += "\\n";
    else if (char === "\t") out += "\\t";
    else if (char === "\r") out += "\\r";
    else if (code === 7) out += "\\a";
    else if (code === 8) out += "\\b";
    else if (code === 12) out += "\\f";
    else if (code === 11) out += "\\v";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code >= 0x80 && code < 0xa0) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  }
  return `${out}"`;
}

/** fmt's %#v of a []string. */
export function goStringSlice(values: readonly string[] | null): string {
  if (values === null) return "[]string(nil)";
  return `[]string{${values.map(goQuote).join(", ")}}`;
}

/** field.Invalid(path, value, detail).Error(); a nil path prints as "<nil>". */
export function fieldInvalid(path: string | null, badValue: string, detail: string): string {
  return `${path ?? "<nil>"}: Invalid value: ${badValue}: ${detail}`;
}

/** utilerrors.NewAggregate(...).Error(): one message alone, several as "[a, b]" (duplicates dropped). */
export function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 1) return unique[0] ?? "";
  return `[${unique.join(", ")}]`;
}
