import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(console)/_components/api-client.ts";
import type { StorageClassView } from "@/lib/domain/storage-class.ts";
import type { Volume } from "@/lib/domain/volume.ts";
import { fetchVolumes } from "@/app/(console)/volumes/_components/volume-rows.ts";

// What the cluster offers the create form: its storage classes, and the claims a new sandbox can
// take as its existing workspace.

async function fetchStorageClasses(signal?: AbortSignal): Promise<StorageClassView[]> {
  return (await api.listStorageClasses({ signal })).items;
}

export function useStorageClasses() {
  return useQuery({ queryKey: ["storage-classes"], queryFn: ({ signal }) => fetchStorageClasses(signal), staleTime: 30_000 });
}

/** Claims nothing mounts that are kept on purpose: a retained or existing workspace waiting for a sandbox. */
export function claimsFreeToAttach(volumes: Volume[], namespace: string): Volume[] {
  return volumes.filter((volume) => volume.namespace === namespace && volume.state === "detached" && volume.phase === "Bound" && (volume.ownership === "retain" || volume.ownership === "existing" || volume.ownership === null));
}

/** The same list and cache key as the Volumes page, so both stay current from the live stream. */
export function useVolumes() {
  return useQuery({ queryKey: ["volumes"], queryFn: ({ signal }) => fetchVolumes(signal) });
}
