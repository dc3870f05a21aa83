# syntax=docker/dockerfile:1
# Clipnest: multi-stage build (docs/deployment.md). Build stage: dependencies, the sendfile addon
# (node-gyp), the web app and the server bundle. Runtime stage: production dependencies and the builds only,
# running as the unprivileged `node` user with its data in the /data volume.

# Node 24 LTS, pinned to 24.18.1: better-sqlite3 12 compiled against the headers of 24.19 or later aborts the
# process when a statement is garbage-collected (nodejs/node#65446). better-sqlite3 13 fixes it but needs Node 22+,
# and Clipnest still supports 20; when 20 goes, move to better-sqlite3 13 and the newest 24. CI tests this version.
FROM node:24.18.1-bookworm-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
COPY native/ native/
# Compiles better-sqlite3 and the sendfile addon (native/) against this Node.
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24.18.1-bookworm-slim AS runtime
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=8787 \
  DATA_DIR=/data \
  SHUTDOWN_TIMEOUT=30 \
  MALLOC_MMAP_THRESHOLD_=1048576 \
  MALLOC_TRIM_THRESHOLD_=1048576
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules/ node_modules/
COPY --from=build /app/contract/ contract/
COPY --from=build /app/native/ native/
COPY --from=build /app/server/package.json server/
COPY --from=build /app/server/dist/ server/dist/
COPY --from=build /app/web/dist/ web/dist/
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "--min-semi-space-size=8", "--initial-old-space-size=96", "--expose-gc", "server/dist/main.mjs"]
