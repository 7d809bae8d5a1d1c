// The image's layout — the standalone server and the bundled CLI — shared by `npm start` (scripts/start.ts), the image's check
// (scripts/ci/check-standalone-server.ts) and, through that check, the Dockerfile.

/**
 * What the image holds, relative to its WORKDIR (/app), and where each part comes from in the
 * build. The Dockerfile's run stage copies exactly these, in this order (checked below, so the
 * two cannot drift apart): the standalone output (server.js, the traced node_modules,
 * .next/server, prisma/migrations — see outputFileTracingIncludes in next.config.ts), then the
 * browser assets and public/, which Next.js leaves out of it, and `berth` bundled into one file
 * by scripts/build-cli.ts (on the PATH in the image, as /app/bin/berth).
 */
export const STANDALONE_LAYOUT: readonly { from: string; to: string; part: "server" | "assets" | "cli" }[] = [
  { from: ".next/standalone", to: ".", part: "server" },
  { from: ".next/static", to: ".next/static", part: "assets" },
  { from: "public", to: "public", part: "assets" },
  { from: "dist/berth.mjs", to: "bin/berth", part: "cli" },
];

