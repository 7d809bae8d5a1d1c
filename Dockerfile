# Berth's image: the production build of the console and its API, run as a non-root user on a
# read-only root file system (the Helm chart mounts the data directory, Next.js's cache and /tmp).
#
#   docker build -t ghcr.io/berth-dev/berth:0.1.0 .
#
# Node.js 22 LTS, as the project is built and tested with (`engines` and the pinned `node`
# devDependency in package.json; README, "Which Node.js runs").
#
# Two stages: `build` installs everything (dev dependencies included: TypeScript, Prisma's CLI,
# esbuild) and runs `next build` and the CLI's bundling; the run stage gets only Next.js's
# standalone output and the one-file `berth`, so no dev dependency and no full node_modules reach
# the image. `kubectl exec deploy/berth -- berth get sandboxes -A --server http://127.0.0.1:3000
# --token "$TOKEN"` works from inside.

FROM node:22-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
# Dependencies first, so a code change does not reinstall them. `postinstall` generates the
# Prisma client into generated/, which needs the schema and the config.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund
COPY . .
# output: "standalone" (next.config.ts) writes .next/standalone: server.js, the node_modules
# files the server was traced to load (the database drivers Next.js leaves to Node, PGlite's
# WebAssembly and data files) and prisma/migrations, which Berth applies at start. The Prisma
# client in generated/ is bundled into the server chunks.
RUN npx next build
# `berth` with everything it imports in one ES module (scripts/build-cli.ts): dist/berth.mjs.
RUN npx tsx scripts/build-cli.ts

FROM node:22-bookworm-slim
WORKDIR /app
# server.js listens on HOSTNAME:PORT. Kubernetes sets HOSTNAME to the pod's name, which would
# bind the server to the pod's address only; the chart sets HOSTNAME=0.0.0.0 on the container too.
# NEXT_MANUAL_SIG_HANDLE: Next.js's own SIGTERM handler would exit at once, racing Berth's, which
# closes the embedded store before it exits (lib/server/runtime.ts).
# MALLOC_MMAP_THRESHOLD_: large buffers go back to the system when freed (scripts/server-memory.ts says why and what it saves).
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    NEXT_MANUAL_SIG_HANDLE=true \
    HOSTNAME=0.0.0.0 \
    PORT=3000 \
    BERTH_DATA_DIR=/var/lib/berth \
    PATH=/app/bin:$PATH
# The standalone server, what Next.js leaves out of it (the browser assets in .next/static, and
# public/), and the bundled CLI (executable as built). Exactly these copies, in this order: scripts/ci/check-standalone-server.ts (`npm test`,
# step "standalone") assembles the same directory from STANDALONE_LAYOUT, starts `node server.js`
# in it and checks /api/health, and fails if these lines and that list differ. Owned by root:
# the server cannot change its own code.
COPY --from=build /app/.next/standalone ./
COPY --from=build /app/.next/static ./.next/static
COPY --from=build /app/public ./public
COPY --from=build /app/dist/berth.mjs ./bin/berth
# The only places the server writes: the data directory (embedded store and simulated cluster)
# and Next.js's runtime cache. The chart mounts volumes on both.
RUN mkdir -p /var/lib/berth /app/.next/cache && chown -R node:node /var/lib/berth /app/.next/cache
USER node
EXPOSE 3000
CMD ["node", "server.js"]
