# syntax=docker/dockerfile:1
# Parley in a container: `docker build -t parley .` then `docker run -p 8000:8000 -v parley-data:/data parley`,
# or the whole scaled-out stack with `docker compose up` (compose.yaml). Node 22 LTS, Debian bookworm (glibc:
# argon2's and better-sqlite3's prebuilt binaries).

# 1. Build the web app and the server bundle with every dependency.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/protocol/package.json packages/protocol/
COPY packages/fixtures/package.json packages/fixtures/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. The server's production dependencies only (the bundle keeps them external; the protocol is bundled in).
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/protocol/package.json packages/protocol/
COPY packages/fixtures/package.json packages/fixtures/
RUN npm ci --omit=dev --no-audit --no-fund --workspace @parley/server \
 && mkdir -p apps/server/node_modules

# 3. What runs: the bundle, the built web app, production dependencies; as the unprivileged `node` user.
FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/apps/server/node_modules ./apps/server/node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/apps/server/package.json ./apps/server/
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/web/dist ./apps/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM is a graceful stop (sockets closed with 1012, the group commit in flight finished).
STOPSIGNAL SIGTERM
CMD ["node", "apps/server/dist/main.js"]
