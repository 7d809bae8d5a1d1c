import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { volumeCreationSchema, type VolumeCreationInput } from "../domain/volume-actions.ts";
import { expectGolden } from "../testing/golden-files.ts";
import { renderStandaloneClaim } from "./standalone-claim.ts";
import { toYaml } from "./yaml.ts";

// A claim made on the Volumes page, as YAML, compared byte for byte. After a deliberate change,
// regenerate with `UPDATE_GOLDEN=1 npx vitest run lib/render` and review the diff.

const TESTDATA = join(dirname(fileURLToPath(import.meta.url)), "testdata");

const rendered = (input: Partial<VolumeCreationInput>) =>
  toYaml(renderStandaloneClaim({ ...volumeCreationSchema.parse({ name: "datasets", size: "20Gi", ...input }), namespace: "team-a" }, "berth.dev"));

const CASES: { name: string; input: Partial<VolumeCreationInput> }[] = [
  { name: "claim-retained-default-class", input: {} },
  { name: "claim-own-portable-shared", input: { retain: false, storageClassName: "portable", accessModes: ["ReadWriteMany"] } },
  { name: "claim-restored-from-snapshot", input: { storageClassName: "portable", dataSource: { kind: "VolumeSnapshot", name: "datasets-monday" } } },
  { name: "claim-cloned-without-class", input: { storageClassName: "", dataSource: { kind: "PersistentVolumeClaim", name: "workspace-alpha" } } },
];

describe("a claim made on the Volumes page", () => {
  it.each(CASES)("matches the golden file $name", ({ name, input }) => {
    expectGolden(TESTDATA, name, rendered(input));
  });
});
