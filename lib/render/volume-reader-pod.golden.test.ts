import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { expectGolden } from "../testing/golden-files.ts";
import { renderVolumeReaderPod } from "./volume-reader-pod.ts";
import { toYaml } from "./yaml.ts";

// The helper pod that reads a free claim, as YAML, compared byte for byte. After a deliberate
// change, regenerate with `UPDATE_GOLDEN=1 npx vitest run lib/render` and review the diff.

const TESTDATA = join(dirname(fileURLToPath(import.meta.url)), "testdata");

describe("the pod that reads a free claim", () => {
  it("matches the golden file", () => {
    const pod = renderVolumeReaderPod({ namespace: "team-a", claim: "datasets", image: "busybox:1.37", startedBy: "alex@berth.example", now: new Date("2026-12-06T08:00:00Z") }, "berth.dev");
    expectGolden(TESTDATA, "volume-reader-pod", toYaml(pod));
  });
});
