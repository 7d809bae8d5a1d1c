import { describe, expect, it } from "vitest";
import { cleanUpItems, confirmationPhrase } from "./clean-up-items.ts";

describe("the clean-up view's items", () => {
  it("say what each deletion does to the data", () => {
    const items = cleanUpItems({
      claims: [
        { namespace: "team-a", name: "kept", ownership: "retain", storageClassName: "portable", size: "1Gi", createdAt: null, lastSandbox: null, reclaimPolicy: "Retain" },
        { namespace: "team-a", name: "plain", ownership: "retain", storageClassName: "portable", size: "1Gi", createdAt: null, lastSandbox: null, reclaimPolicy: "Delete" },
      ],
      releasedVolumes: [{ name: "pvc-1", uid: "u", reclaimPolicy: "Retain", storageClassName: null, capacity: "1Gi", formerClaim: null, createdAt: null }],
      snapshots: [{ namespace: "team-a", name: "snap", sourceClaim: "gone", readyToUse: true, restoreSize: "1Gi", error: null, snapshotClass: null, createdAt: null, deleting: false }],
    });
    expect(items.map((item) => [item.key, item.lost])).toEqual([
      ["claim:team-a/kept", "its volume stays, Released, with the data"],
      ["claim:team-a/plain", "its data goes with it"],
      ["volume:pvc-1", "the data it kept goes with it"],
      ["snapshot:team-a/snap", "the saved copy goes with it"],
    ]);
  });

  it("are confirmed by typing how many go", () => {
    expect(confirmationPhrase(3)).toBe("delete 3");
  });
});
