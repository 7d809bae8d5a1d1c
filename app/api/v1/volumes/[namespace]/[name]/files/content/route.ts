import { contentDisposition } from "@/lib/domain/volume-files.ts";
import { readVolumeFile } from "@/lib/sandboxes/volume-files.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { volumeFilesDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/**
 * A file of the claim, as a download whatever it holds: never rendered by the browser (no
 * sniffing, an attachment, a sandboxing policy should it be opened anyway).
 */
export const GET = endpointRoute("readVolumeFile", async ({ runtime, params, query, kube }) => {
  const { content } = await readVolumeFile(await volumeFilesDeps(runtime, kube()), params.namespace, params.name, query.path);
  return new Response(new Uint8Array(content), {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Disposition": contentDisposition(query.path),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox; default-src 'none'",
      "Cache-Control": "private, no-store",
    },
  });
});
