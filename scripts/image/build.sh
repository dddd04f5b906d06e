#!/usr/bin/env bash
# `npm run image [-- --tag NAME]`: builds the Dockerfile's runtime image with the container engine
# at hand (scripts/image/engine.sh: docker with a daemon, else podman) and prints its name.
#
# - Podman builds with --format docker: the OCI format drops HEALTHCHECK, the docker format keeps
#   it for docker, compose and `podman healthcheck run` (Kubernetes ignores it either way and
#   uses the chart's probes).
# - No registry reachable (podman cannot pull the base image): the base image
#   node:<major>-bookworm-slim is made locally (scripts/image/node-base.sh) and the build runs
#   with --pull=never. Its `npm ci` still needs the npm registry, reached through the host's
#   network (--network host) and, behind a TLS-intercepting proxy, the host's CA bundle, which
#   the local base image holds (NODE_EXTRA_CA_CERTS).
# - Podman also builds with --layers=false: its vfs storage (the only driver that works on hosts
#   like this one) has no copy-on-write, so every committed layer is a full copy of the image so
#   far plus a walk of both trees to find the difference. One commit per stage instead of one per
#   COPY/RUN took the build from about 23 minutes to the figure in docs/benchmarks.md. npm's
#   packages stay cached across builds in the Dockerfile's cache mount.
# - The build's timing goes to stderr ("image: built NAME in Ns").
set -euo pipefail
cd "$(dirname "$0")/../.."
tag=rollout-doctor:local
while [ $# -gt 0 ]; do
  case "$1" in
    --tag) tag=${2:?--tag needs a NAME}; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "image: unknown option $1" >&2; exit 2 ;;
  esac
done
. scripts/image/engine.sh
node_version=${ROLLOUT_DOCTOR_IMAGE_NODE:-24.21.0}
base="docker.io/library/node:${node_version%%.*}-bookworm-slim"
args=(build --target runtime -t "$tag" -f Dockerfile)
if [ "$ENGINE_NAME" = podman ]; then
  args+=(--format docker --network host --layers=false)
  if "${ENGINE[@]}" image inspect "$base" >/dev/null 2>&1 || "${ENGINE[@]}" pull -q "$base" >/dev/null 2>&1; then
    :
  else
    echo "image: no registry answers for $base; making it locally (scripts/image/node-base.sh)" >&2
    bash scripts/image/node-base.sh "$node_version" >/dev/null
  fi
  args+=(--pull=never)
fi
start=$(date +%s)
"${ENGINE[@]}" "${args[@]}" . >&2
echo "image: built $tag with $ENGINE_NAME in $(( $(date +%s) - start ))s" >&2
echo "$tag"
