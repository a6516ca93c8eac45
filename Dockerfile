# syntax=docker/dockerfile:1.7
#
# One image for every Agora process. The process is chosen at run time by the first argument
# (or the SERVICE variable): gateway | social | admin | federation | notifications | backup |
# standalone. See deploy/docker-entrypoint.sh and docs/operations.md.
#
#   docker build -t agora .
#   docker run --rm -p 8080:8080 -v agora-data:/app/data agora            # standalone
#   docker run --rm -e MONGO_URL=... -e AMQP_URL=... agora social          # one cluster service
#
# The image runs compiled JavaScript: the build stage bundles every entry point into dist/
# (scripts/build.ts, esbuild; the @agora workspaces bundled in, npm packages external), and the
# runtime stage holds dist/ and the production dependencies only (standalone's database is SQLite
# in the Node process); no TypeScript sources, no tsx, no dev dependencies.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------------------------------------
# Dependencies: every workspace's package.json and the lockfile, then `npm ci` with dev
# dependencies (esbuild and tsx, to build). Only these files are copied first so the layer is
# cached until the lockfile or a package.json changes.
#
# --ignore-scripts: no production dependency needs its install script at run time (protobufjs'
# is a version notice). It also keeps the `node` devDependency (which pins Node for npm scripts
# on development machines) from downloading a second Node binary, and skips native builds of
# test-only packages. esbuild finds its platform binary through its optional dependency
# without its script; the build stage proves it works.
# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs/common/package.json libs/common/
COPY services/gateway/package.json services/gateway/
COPY services/social/package.json services/social/
COPY services/admin/package.json services/admin/
COPY services/federation/package.json services/federation/
COPY services/notifications/package.json services/notifications/
COPY services/backup/package.json services/backup/
COPY standalone/package.json standalone/
COPY web/package.json web/
RUN --mount=type=cache,target=/root/.npm \
    npm ci --ignore-scripts --no-audit --no-fund

# ---------------------------------------------------------------------------------------------
# Build: the sources (filtered by .dockerignore) compiled to dist/ (`npm run build`).
# ---------------------------------------------------------------------------------------------
FROM deps AS build
COPY . .
RUN npm run build

# ---------------------------------------------------------------------------------------------
# Production dependencies only (same manifests, same lockfile, no dev dependencies).
# ---------------------------------------------------------------------------------------------
FROM deps AS prod-deps
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# ---------------------------------------------------------------------------------------------
# The web app (docs/web.md): built once here, served by the gateway from /app/web/dist. The build
# fails when the first-load JS budget is exceeded.
# ---------------------------------------------------------------------------------------------
FROM deps AS web
COPY tsconfig.base.json ./
COPY web web
RUN cd web && NODE_ENV=production VITE_CONFIG_NATIVE_IGNORE_WARNING=true ../node_modules/.bin/vite build

# ---------------------------------------------------------------------------------------------
# Runtime.
# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime

# tini as PID 1: forwards SIGTERM to node (which drains and exits) and reaps zombies.
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/app/data

WORKDIR /app
# Production node_modules (the bundles require npm packages from there at run time), the
# compiled entry points with their source maps, and the entry script. Code stays owned by root
# and read-only for the process; only DATA_DIR (standalone data) belongs to the `node` user.
# The web app goes to /app/web/dist: the gateway serves it from there.
COPY --from=prod-deps /app /app
COPY --from=build /app/dist /app/dist
COPY deploy/docker-entrypoint.sh /app/deploy/docker-entrypoint.sh
COPY --from=web /app/web/dist /app/web/dist

# Then a smoke test: every package the bundles require resolves from /app/dist, and the
# standalone bundle loads and validates its config (a bad PORT exits 2 naming the variable).
RUN set -eux; \
    chmod 0755 deploy/docker-entrypoint.sh; \
    mkdir -p /app/data; \
    chown node:node /app/data; \
    node -e "for (const m of require('/app/dist/externals.json')) require.resolve(m, { paths: ['/app/dist'] })"; \
    if PORT=not-a-port node dist/standalone.js; then exit 1; else test $? -eq 2; fi

# The image's own non-root user (uid/gid 1000). Kubernetes manifests set runAsUser: 1000 too,
# because runAsNonRoot cannot verify a user given by name.
USER node
EXPOSE 8080

# With a read-only root filesystem, mount a writable /tmp for temporary files (deploy/k8s does,
# as an emptyDir).
ENTRYPOINT ["/usr/bin/tini", "--", "/app/deploy/docker-entrypoint.sh"]
# No CMD: the first argument picks the process; without one, SERVICE (default standalone).
