# Berth's image: the production build of the console and its API, run as a non-root user on a
# read-only root file system (the Helm chart mounts the data directory, Next.js's cache and /tmp).
#
#   docker build -t ghcr.io/berth-dev/berth:0.1.0 .
#
# Node 20, as the project is built and tested with (see ../shared/TOOLCHAIN.md in the repo's
# workspace and `engines` in package.json).

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
# Dependencies first, so a code change does not reinstall them. `postinstall` generates the
# Prisma client into generated/, which needs the schema and the config.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx next build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    BERTH_DATA_DIR=/var/lib/berth
# What `next start` needs at run time: the build, the runtime dependencies (drivers Next.js
# leaves to Node), the generated Prisma client, and the migrations Berth applies at start.
COPY --from=build /app/package.json /app/next.config.ts ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
COPY --from=build /app/public ./public
COPY --from=build /app/generated ./generated
COPY --from=build /app/prisma ./prisma
RUN mkdir -p /var/lib/berth /app/.next/cache && chown -R node:node /var/lib/berth /app/.next/cache
USER node
EXPOSE 3000
CMD ["node_modules/.bin/next", "start", "-H", "0.0.0.0", "-p", "3000"]
