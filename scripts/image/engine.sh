# Sourced by the scripts under scripts/image/: picks the container engine into the array ENGINE.
# A docker whose daemon answers wins; otherwise podman, with the settings this kind of machine
# needs (vfs storage, runc, cgroupfs, no default rlimits: crun refuses hybrid cgroups and
# setrlimit here; docs/image.md). ROLLOUT_DOCTOR_ENGINE=podman|docker forces one.
# shellcheck shell=bash
ENGINE=()
ENGINE_NAME=
pick=${ROLLOUT_DOCTOR_ENGINE:-}
if [ -z "$pick" ]; then
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then pick=docker
  elif command -v podman >/dev/null 2>&1; then pick=podman
  fi
fi
case "$pick" in
  docker) ENGINE=(docker); ENGINE_NAME=docker ;;
  podman)
    conf_dir=${XDG_CACHE_HOME:-$HOME/.cache}/rollout-doctor-image
    mkdir -p "$conf_dir"
    printf '[containers]\ndefault_ulimits = []\n' >"$conf_dir/containers.conf"
    export CONTAINERS_CONF="$conf_dir/containers.conf"
    ENGINE=(podman --storage-driver vfs --runtime runc --cgroup-manager cgroupfs)
    ENGINE_NAME=podman
    ;;
  *) echo "image: no container engine (docker with a running daemon, or podman)" >&2; return 3 2>/dev/null || exit 3 ;;
esac
