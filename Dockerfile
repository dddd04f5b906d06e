# syntax=docker/dockerfile:1
# One image for the app and the worker; they differ only in their command
# (docker-compose.yml and deploy/ name them):
#   app:    node <heap flags> dist/src/app/main.js   (npm start)
#   worker: node dist/workers/main.js      (npm run worker)
#   CLI:    node bin/rollout-doctor.js ...
# Build and push it, then name it in the Helm chart (image.repository) or in
# deploy/kustomization.yaml (images): README, "Image".
# Node 24 is an LTS line. The undici override in package.json is only needed on
# Node 20 and harmless here.

# The base: the official node image, or where no registry answers the one
# scripts/image/node-base.sh makes, named as what it is (build.sh passes NODE_BASE).
ARG NODE_BASE=node:24-bookworm-slim

# npm's cache is a build cache mount (never a layer): the runtime stage's `npm ci --omit=dev`
# takes its packages from what the build stage fetched, and a rebuild fetches nothing again.
# Behind a TLS-intercepting proxy npm must trust the proxy's CA: it comes as the build secret
# `build-ca` (build.sh: ROLLOUT_DOCTOR_BUILD_CA), trusted by that one `npm ci` through
# NODE_EXTRA_CA_CERTS in its own shell, and never written to a layer or the image's
# environment: the image trusts what its distribution and Node trust, nothing of the build host.
FROM ${NODE_BASE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked --mount=type=secret,id=build-ca \
  if [ -s /run/secrets/build-ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/build-ca; fi; \
  npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workers ./workers
# tsconfig.build.json compiles src/ and workers/ only: rootDir "." and outDir "dist", so
# src/app/main.ts becomes dist/src/app/main.js and workers/main.ts
# dist/workers/main.js. The simulator and the tests are never compiled into dist/.
RUN npm run build

# The Kubernetes API simulator with both seed incidents, for docker-compose's
# `demo` profile only. Test tooling: it keeps the dev dependencies (tsx), runs the
# TypeScript of sim/ and scripts/ directly, and is never the image you deploy.
FROM build AS demo-sim
COPY sim ./sim
COPY scripts ./scripts
USER 1000:1000
EXPOSE 6443
CMD ["node", "--import", "tsx", "scripts/demo-sim.ts", "--port", "6443"]

# The deployable image (the default target, last stage).
FROM ${NODE_BASE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked --mount=type=secret,id=build-ca \
  if [ -s /run/secrets/build-ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/build-ca; fi; \
  npm ci --omit=dev --no-audit --no-fund
# Only the compiled src/ and workers/ (dist/src, dist/workers) and the CLI wrapper: no
# simulator, tests or TypeScript.
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/workers ./dist/workers
COPY bin/rollout-doctor.js ./bin/rollout-doctor.js
# The image's unprivileged "node" user, numeric so Kubernetes can verify runAsNonRoot;
# nothing under /app is writable by it.
USER 1000:1000
EXPOSE 3000
# For the app: /healthz answers while the process serves. The worker answers GET
# /healthz on ROLLOUT_DOCTOR_HEALTH_PORT (failing when it lost Redis): docker-compose.yml
# replaces this check for it, and Kubernetes uses deploy/worker.yaml's liveness probe.
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Heap flags of the app: src/app/node-flags.ts.
CMD ["node", "--min-semi-space-size=16", "--max-semi-space-size=16", "--initial-heap-size=192", "dist/src/app/main.js"]
