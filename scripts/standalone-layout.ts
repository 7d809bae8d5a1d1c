// The standalone server's layout, shared by `npm start` (scripts/start.ts), the image's check
// (scripts/ci/check-standalone-server.ts) and, through that check, the Dockerfile.

/**
 * What the image holds, relative to its WORKDIR (/app), and where each part comes from in the
 * build. The Dockerfile's run stage copies exactly these, in this order (checked below, so the
 * two cannot drift apart): the standalone output (server.js, the traced node_modules,
 * .next/server, prisma/migrations — see outputFileTracingIncludes in next.config.ts), then the
 * browser assets and public/, which Next.js leaves out of it.
 */
export const STANDALONE_LAYOUT: readonly { from: string; to: string }[] = [
  { from: ".next/standalone", to: "." },
  { from: ".next/static", to: ".next/static" },
  { from: "public", to: "public" },
];

