# syntax=docker/dockerfile:1
# The product's one image: the API (the default command), the projector and the ops CLI, run as
#   docker run IMAGE                                   -> node api/src/main.ts        (npm run start:api)
#   docker run IMAGE node projector/src/main.ts        -> the projector               (npm run start:projector)
#   docker run IMAGE node ops/src/cli.ts migrate       -> ops migrate, staff:create, verify, ...
# Node 24 runs the TypeScript sources directly (type stripping): there is no compile step, only
# the front ends are built (Vite) and copied in as static files.

ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: every dependency, then the console and portal bundles (npm run build) -------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY eventstore/package.json eventstore/
COPY platform/package.json platform/
COPY domain/package.json domain/
COPY api/package.json api/
COPY projector/package.json projector/
COPY embedded/package.json embedded/
COPY seed/package.json seed/
COPY testing/package.json testing/
COPY console/package.json console/
COPY portal/package.json portal/
COPY web-client/package.json web-client/
COPY ops/package.json ops/
# The test workspaces' manifests (npm ci wants every workspace of the lock file; their
# dependencies are all devDependencies, so the production install below skips them).
COPY api/test/package.json api/test/
COPY projector/test/package.json projector/test/
COPY eventstore/test/package.json eventstore/test/
COPY domain/test/package.json domain/test/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- deps: production dependencies only, from the same lock file ---------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY eventstore/package.json eventstore/
COPY platform/package.json platform/
COPY domain/package.json domain/
COPY api/package.json api/
COPY projector/package.json projector/
COPY embedded/package.json embedded/
COPY seed/package.json seed/
COPY testing/package.json testing/
COPY console/package.json console/
COPY portal/package.json portal/
COPY web-client/package.json web-client/
COPY ops/package.json ops/
# The test workspaces' manifests (npm ci wants every workspace of the lock file; their
# dependencies are all devDependencies, so the production install below skips them).
COPY api/test/package.json api/test/
COPY projector/test/package.json projector/test/
COPY eventstore/test/package.json eventstore/test/
COPY domain/test/package.json domain/test/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime: sources, production node_modules and the built front ends; no compilers, no npm cache
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    PROJECTOR_HEALTH_PORT=3001
WORKDIR /app
# Owned by root and read-only to the process: the app writes nothing under /app.
COPY --from=deps /app/node_modules node_modules
COPY --from=deps /app/package.json /app/package-lock.json ./
COPY contracts/package.json contracts/
COPY contracts/src contracts/src
COPY eventstore/package.json eventstore/
COPY eventstore/src eventstore/src
COPY platform/package.json platform/
COPY platform/src platform/src
COPY platform/migrations platform/migrations
COPY domain/package.json domain/
COPY domain/src domain/src
COPY embedded/package.json embedded/
COPY embedded/src embedded/src
COPY seed/package.json seed/
COPY seed/src seed/src
COPY api/package.json api/
COPY api/src api/src
COPY projector/package.json projector/
COPY projector/src projector/src
COPY web-client/package.json web-client/
COPY web-client/src web-client/src
COPY ops/package.json ops/
COPY ops/src ops/src
COPY --from=build /app/console/package.json console/
COPY --from=build /app/console/dist console/dist
COPY --from=build /app/portal/package.json portal/
COPY --from=build /app/portal/dist portal/dist
# The image's user: `node` (uid 1000) from the official image, not root.
USER node
EXPOSE 3000 3001
# The API's readiness on PORT; the projector's service overrides it with its PROJECTOR_HEALTH_PORT.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "ops/src/health-probe.ts", "api"]
CMD ["node", "api/src/main.ts"]
