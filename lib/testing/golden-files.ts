import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

/**
 * Compares `actual` with the golden file `<dir>/<name>.golden.<extension>`, byte for byte. After
 * a deliberate change, run the test with UPDATE_GOLDEN=1 to rewrite the files, and review the diff.
 */
export function expectGolden(dir: string, name: string, actual: string, extension = "yaml"): void {
  const path = join(dir, `${name}.golden.${extension}`);
  if (process.env["UPDATE_GOLDEN"] === "1") {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) throw new Error(`missing golden file ${path}; run with UPDATE_GOLDEN=1 to write it`);
  expect(actual).toBe(readFileSync(path, "utf8"));
}
