#!/usr/bin/env bash
# `npm run image [-- --tag NAME]`: builds the Dockerfile's runtime image with the container engine
# at hand (scripts/image/engine.sh: docker with a daemon, else podman) and prints its name.
#
# - Podman builds with --format docker: the OCI format drops HEALTHCHECK, the docker format keeps
#   it for docker, compose and `podman healthcheck run` (Kubernetes ignores it either way and
#   uses the chart's probes).
# - No registry reachable (podman cannot pull node:<major>-bookworm-slim): a base is made locally
#   (scripts/image/node-base.sh), tagged localhost/rollout-doctor-node-base:<version>-bookworm,
#   handed to the Dockerfile as NODE_BASE, and the build runs with --pull=never. Its `npm ci`
#   still needs the npm registry, reached through the host's network (--network host).
# - Trust for the build only: behind a TLS-intercepting proxy the build's `npm ci`
#   must trust the proxy's CA. ROLLOUT_DOCTOR_BUILD_CA names a PEM file given to those steps as
#   the build secret `build-ca` (default: $NODE_EXTRA_CA_CERTS when set, else the host's
#   /etc/ssl/certs/ca-certificates.crt; `none`: nothing). A secret is never a layer: the image
#   carries no build-host CA and no NODE_EXTRA_CA_CERTS; set that at run time to add a CA.
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
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "image: unknown option $1" >&2; exit 2 ;;
  esac
done
. scripts/image/engine.sh
node_version=${ROLLOUT_DOCTOR_IMAGE_NODE:-24.21.0}
base="docker.io/library/node:${node_version%%.*}-bookworm-slim"
args=(build --target runtime -t "$tag" -f Dockerfile)
# The build step's CA (a secret: never in a layer); an empty file when there is none.
build_ca=${ROLLOUT_DOCTOR_BUILD_CA:-${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}}
secret_dir=$(mktemp -d)
trap 'rm -rf "$secret_dir"' EXIT
if [ "$build_ca" != none ] && [ -s "$build_ca" ]; then
  cp "$build_ca" "$secret_dir/build-ca"
  echo "image: the build's npm ci trusts $build_ca (a build secret, not in the image)" >&2
else
  : >"$secret_dir/build-ca"
fi
args+=(--secret "id=build-ca,src=$secret_dir/build-ca")
if [ "$ENGINE_NAME" = podman ]; then
  args+=(--format docker --network host --layers=false)
  # The official image only as a registry gave it (a repository digest): an image imported
  # under that name on this host (as node-base.sh once did, with the host's CAs) is not it.
  pulled() {
    local n
    n=$("${ENGINE[@]}" image inspect "$base" --format '{{len .RepoDigests}}' 2>/dev/null) && [ "${n:-0}" -gt 0 ]
  }
  if pulled || { "${ENGINE[@]}" pull -q "$base" >/dev/null 2>&1 && pulled; }; then
    :
  else
    echo "image: no registry answers for $base; making a base locally (scripts/image/node-base.sh)" >&2
    base=$(bash scripts/image/node-base.sh "$node_version")
    echo "image: base $base" >&2
  fi
  args+=(--pull=never --build-arg "NODE_BASE=$base")
fi
start=$(date +%s)
"${ENGINE[@]}" "${args[@]}" . >&2
echo "image: built $tag with $ENGINE_NAME in $(( $(date +%s) - start ))s" >&2
echo "$tag"
