// Writes the OpenAPI documents the embedded cluster publishes (/openapi/v2 and /openapi/v3) for
// exactly what it serves: the list of served resources comes from lib/sim/api/resources.ts, the
// built-in documents from the Kubernetes release the real control plane lane follows, and the
// custom resources' documents are built from their definitions by the API server's own code
// (scripts/kube-openapi). The result is committed, so a fresh clone serves it without Go.
//
//   npm run generate:openapi
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { moduleDirectory, pinnedVersion } from "./cluster/pinned-modules.ts";
import { RESOURCES } from "../lib/sim/api/resources.ts";
import { definitionObject } from "../lib/sim/api/served-definitions.ts";
import { deriveKnownFields } from "../lib/sim/api/known-fields.ts";

const root = path.resolve(import.meta.dirname, "..");

const served = {
  builtIn: RESOURCES.filter((definition) => !definition.customResourceDefinition).flatMap((definition) => definition.versions.map((version) => ({ group: definition.group, version, resource: definition.resource }))),
  customResourceDefinitions: RESOURCES.filter((definition) => definition.customResourceDefinition).map((definition) => definitionObject(definition, "1970-01-01T00:00:00Z")),
};

const work = mkdtempSync(path.join(tmpdir(), "berth-openapi-"));
try {
  const servedFile = path.join(work, "served.json");
  writeFileSync(servedFile, JSON.stringify(served));
  const specDir = path.join(moduleDirectory("k8s.io/kubernetes", pinnedVersion("KUBERNETES_VERSION"), path.join(root, "scripts", "kube-openapi")), "api", "openapi-spec");
  execFileSync("go", ["run", ".", "-served", servedFile, "-spec-dir", specDir, "-out", path.join(root, "lib", "sim", "api", "generated")], { cwd: path.join(root, "scripts", "kube-openapi"), stdio: "inherit" });
} finally {
  rmSync(work, { recursive: true, force: true });
}

// The fields each kind declares, for the API server's unknown-field checks: small enough to load
// on the first write, where the documents themselves are loaded only when a client asks for them.
const generated = path.join(root, "lib", "sim", "api", "generated");
const documents = JSON.parse(readFileSync(path.join(generated, "openapi-v3.json"), "utf8")) as Record<string, { document: string }>;
writeFileSync(path.join(generated, "known-fields.json"), `${JSON.stringify(deriveKnownFields(documents))}\n`);
