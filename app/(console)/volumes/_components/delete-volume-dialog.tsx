"use client";

import { useQueryClient } from "@tanstack/react-query";
import { api, send } from "@/app/(console)/_components/api-client.ts";
import { TypedDeleteDialog } from "@/app/(console)/_components/typed-delete-dialog.tsx";
import type { Volume } from "@/lib/domain/volume.ts";

/** What deleting the claim takes away, in words, before anyone types its name. */
function whatIsLost(volume: Volume): string {
  const owner = volume.sandbox ? `the workspace of the deleted sandbox ${volume.sandbox.name}` : "its files";
  const size = volume.capacity ?? volume.requested;
  return `Deleting ${volume.name} deletes ${owner}${size ? ` (${size})` : ""} for good: no sandbox can be started from it again, and with the usual reclaim policy Delete the volume behind it goes too. This cannot be undone.`;
}

/** Delete a detached claim, confirmed by typing its name. */
export function DeleteVolumeDialog({ volume, onChanged }: { volume: Volume; onChanged: () => void }) {
  const queryClient = useQueryClient();
  return (
    <TypedDeleteDialog
      name={volume.name}
      title={`Delete claim ${volume.name}?`}
      whatIsLost={whatIsLost(volume)}
      confirmLabel="Delete claim"
      remove={() => send(() => api.deleteVolume({ params: { namespace: volume.namespace, name: volume.name } }))}
      onDeleted={() => {
        // Gone for the person at once; the list catches up with the cluster behind it.
        queryClient.setQueryData<Volume[]>(["volumes"], (old) => old?.filter((one) => !(one.namespace === volume.namespace && one.name === volume.name)));
        onChanged();
      }}
    />
  );
}
