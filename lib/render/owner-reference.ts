// Owner references Berth puts on what it makes beside a Sandbox. Pure.

export interface Owner {
  apiVersion: string;
  kind: string;
  metadata: { name: string; uid: string };
}

/** The manifest, garbage-collected with its owner: a dependent, not controlled by it. */
export function withOwner<T extends { metadata: object }>(manifest: T, owner: Owner): T {
  return {
    ...manifest,
    metadata: {
      ...manifest.metadata,
      ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: false, blockOwnerDeletion: false }],
    },
  };
}
