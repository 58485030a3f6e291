# syntax=docker/dockerfile:1
# Production image of 校园帮: build with `docker build -t campus-app .`, run with
#   docker run -p 3000:3000 -v campus-data:/app/data \
#     -e SESSION_SECRET=… -e APP_ENCRYPTION_KEY=<64 hex> campus-app
# Behind a reverse proxy (TLS ends there) add -e TRUST_PROXY=true (one proxy; a number for more
# hops): the proxy must pass Host and set X-Forwarded-Proto and X-Forwarded-For (appending the
# client's address, e.g. nginx `proxy_add_x_forwarded_for`). The client address of the login rate
# limits and the https origin of form posts come from those headers then; without TRUST_PROXY they
# are ignored. Never set it when clients reach the container directly: they could pick an address.
# CI has no Docker engine; tests/unit/production-start.test.ts runs the same start command.

# Every stage runs on this one image: Node 24, the current LTS line, which CI tests on too (the
# `node` dev dependency gives npm scripts that Node on machines with an older one). better-sqlite3
# 13 is built on Node-API and ships its binaries, so nothing is compiled (decision 051).
ARG NODE_IMAGE=node:24-bookworm-slim

# --- deps: every dependency (none is compiled: the native ones ship Node-API binaries) ----------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
# package.json's allowScripts denies onnxruntime-node's install script (it would fetch CUDA files);
# its CPU binaries ship inside the package.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund \
 && node -e "new (require('better-sqlite3'))(':memory:').close()"

# --- build: the Remix build, then only the production dependencies are kept ---------------------
FROM deps AS build
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && node scripts/prune-platform-binaries.mjs

# --- runtime: the slim image, no compilers, a non-root user -----------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATABASE_URL=file:/app/data/app.db
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/public ./public
COPY --from=build --chown=node:node /app/server.mjs ./server.mjs
# The screenshot recognition worker process runs outside the Remix bundle (workers/*.mjs).
COPY --from=build --chown=node:node /app/workers ./workers
# The operator commands, with plain node (no tsx at run time):
#   docker exec -i <container> node scripts/admin-create.mjs alice --display-name 小周 <<< 'password'
#   docker exec <container> node scripts/db-backup.mjs      (SQLite; PostgreSQL: pg_dump)
#   docker exec <container> node scripts/uploads-backup.mjs (uploads on local disk)
COPY --from=build --chown=node:node /app/scripts/admin-create.mjs /app/scripts/db-backup.mjs /app/scripts/uploads-backup.mjs ./scripts/
COPY --from=build --chown=node:node /app/scripts/lib/ensure-build.mjs /app/scripts/lib/help.mjs ./scripts/lib/
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME /app/data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# server.mjs migrates, seeds reference data, listens, and shuts down gracefully on SIGTERM.
CMD ["node", "server.mjs"]
