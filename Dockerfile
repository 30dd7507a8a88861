# syntax=docker/dockerfile:1
# The storefront for production (issue 33; README "Running at scale"): built with Node 22 and
# the locked dependencies, run as a non-root user from the sources (Node 22 strips the types)
# and the React Router build, with production dependencies only. Expects an external
# PostgreSQL (DATABASE_URL) and, with more than one process, S3-compatible storage (S3_*):
# compose.yaml runs the whole topology.

FROM node:22-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# What `node server/main.ts` loads: the server, the services, the schema and its migrations, the
# app's modules the server imports (context, locales) and the build; scripts/ for the operator's
# commands (`node scripts/admin-grant.ts`). Owned by root, read-only to the app's user.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/server ./server
COPY --from=build /app/core ./core
COPY --from=build /app/db ./db
COPY --from=build /app/app ./app
COPY --from=build /app/scripts ./scripts
# DATA_DIR: the generated secrets and, without S3, the uploads (mount a volume there); nothing
# else is written.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# /healthz: the process is up (a database outage is /readyz's business, for the balancer; a
# container restarted for it would not help).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM starts the drain (/readyz 503, port open), then a graceful stop: give the container at
# least the drain plus twice SHUTDOWN_TIMEOUT_SECONDS (compose.yaml: stop_grace_period 60s).
STOPSIGNAL SIGTERM
CMD ["node", "server/main.ts"]
