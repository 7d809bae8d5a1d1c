import { stringify } from "yaml";

/**
 * YAML for people and golden files. No line folding, so a long init script stays one line
 * and a diff shows exactly what changed.
 */
export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0, minContentWidth: 0 });
}
