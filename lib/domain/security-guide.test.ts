import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BERTH_LEADER_ELECTION_RULES, BERTH_SERVICE_ACCOUNT_RULES } from "./berth-roles.ts";

// docs/security.md against the service account's rules: every resource the chart grants is in
// its table, with exactly the verbs granted.

const guide = readFileSync(path.join(import.meta.dirname, "..", "..", "docs", "security.md"), "utf8");
const rows = guide.split("\n").filter((line) => line.startsWith("| `"));

describe("the security guide", () => {
  it.each([...BERTH_SERVICE_ACCOUNT_RULES, ...BERTH_LEADER_ELECTION_RULES].flatMap((rule) => (rule.resources ?? []).map((resource) => [resource, rule.verbs] as const)))("gives %s its verbs", (resource, verbs) => {
    const row = rows.find((line) => line.split("|")[1]!.includes(`\`${resource}\``));
    expect(row?.split("|")[2]?.split(",").map((verb) => verb.trim())).toEqual(verbs);
  });
});
