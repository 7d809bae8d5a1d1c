import { openApiDocument } from "@/lib/server/openapi.ts";

export const dynamic = "force-static";

export function GET(): Response {
  return Response.json(openApiDocument(process.env.npm_package_version ?? "0.1.0"));
}
