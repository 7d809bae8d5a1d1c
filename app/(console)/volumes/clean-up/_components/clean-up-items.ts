import type { CleanUp } from "@/lib/domain/clean-up.ts";

// The clean-up view's rows as one list of things that can be deleted, each with the key it is
// selected by and the words a confirmation says about it. Pure.

export type CleanUpItem =
  | { key: string; kind: "claim"; namespace: string; name: string; lost: string }
  | { key: string; kind: "volume"; name: string; lost: string }
  | { key: string; kind: "snapshot"; namespace: string; name: string; sourceClaim: string; lost: string };

export function cleanUpItems(view: CleanUp): CleanUpItem[] {
  return [
    ...view.claims.map((claim): CleanUpItem => ({
      key: `claim:${claim.namespace}/${claim.name}`,
      kind: "claim",
      namespace: claim.namespace,
      name: claim.name,
      lost: claim.reclaimPolicy === "Retain" ? "its volume stays, Released, with the data" : "its data goes with it",
    })),
    ...(view.releasedVolumes ?? []).map((volume): CleanUpItem => ({ key: `volume:${volume.name}`, kind: "volume", name: volume.name, lost: "the data it kept goes with it" })),
    ...view.snapshots.map((snapshot): CleanUpItem => ({
      key: `snapshot:${snapshot.namespace}/${snapshot.name}`,
      kind: "snapshot",
      namespace: snapshot.namespace,
      name: snapshot.name,
      sourceClaim: snapshot.sourceClaim ?? "",
      lost: "the saved copy goes with it",
    })),
  ];
}

/** What is typed to confirm deleting `count` things: the count is what a slip of the mouse gets wrong. */
export const confirmationPhrase = (count: number) => `delete ${count}`;
