#!/usr/bin/env bash
# Smoke test of the built container image WITHOUT running a container (this project's sandbox
# cannot run one; issue 44): exports the image's file system (podman create + podman export),
# starts the image's own CMD from it with chroot as the image's USER, with the image's ENV and
# WORKDIR, and checks that GET /healthz answers 200, that GET /readyz answers 200 (the embedded
# PostgreSQL of the image started in the image's /data, migrations applied, job worker running),
# that the image's HEALTHCHECK command succeeds, and that SIGTERM stops everything with exit code 0.
# Not part of `npm test` (minutes); README "Container image".
# Usage: scripts/container-smoke.sh [IMAGE]   (default localhost/team-checkin:latest)
# Settings: SMOKE_PORT (3999), SMOKE_TIMEOUT seconds until /healthz must answer (240),
# SMOKE_DATABASE_URL (default: the image's embedded PostgreSQL). Needs root, podman, node.
set -euo pipefail

IMAGE="${1:-localhost/team-checkin:latest}"
PORT="${SMOKE_PORT:-3999}"
TIMEOUT="${SMOKE_TIMEOUT:-240}"
WORK="$(mktemp -d /var/tmp/checkin-smoke.XXXXXX)"
ROOT="$WORK/rootfs"
LOG="$WORK/server.log"
SERVER_PID=""

cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    sleep 10
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  for m in proc dev/shm dev; do mountpoint -q "$ROOT/$m" 2>/dev/null && umount -l "$ROOT/$m"; done
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "== Exporting the file system of $IMAGE"
mkdir -p "$ROOT"
cid="$(podman create "$IMAGE")"
podman export "$cid" | tar --numeric-owner -C "$ROOT" -xf -
podman rm -f "$cid" >/dev/null 2>&1 # (its "no systemd for healthcheck timers" complaint is harmless)
echo "   $(du -sh "$ROOT" | cut -f1) unpacked"

# The image's USER, ENV, WORKDIR, CMD and HEALTHCHECK, from its configuration.
config="$(podman image inspect "$IMAGE")"
read_config() { CONFIG="$config" node -e "const i = JSON.parse(process.env.CONFIG)[0], c = i.Config || {}; $1"; }
user="$(read_config 'process.stdout.write(c.User || "root")')"
workdir="$(read_config 'process.stdout.write(c.WorkingDir || "/")')"
mapfile -t env_list < <(read_config 'for (const e of c.Env || []) console.log(e)')
mapfile -t cmd < <(read_config 'for (const a of [...(c.Entrypoint || []), ...(c.Cmd || [])]) console.log(a)')
mapfile -t health < <(read_config 'const h = i.Healthcheck || c.Healthcheck; if (h && h.Test && h.Test[0] === "CMD") for (const a of h.Test.slice(1)) console.log(a)')
uid_gid="$(awk -F: -v u="$user" '$1 == u || $3 == u { print $3 ":" $4; exit }' "$ROOT/etc/passwd")"
[ -n "$uid_gid" ] || { echo "smoke: user $user not in the image's /etc/passwd" >&2; exit 1; }
[ "${uid_gid%%:*}" != 0 ] || { echo "smoke: the image runs as root" >&2; exit 1; }
echo "   USER $user ($uid_gid), WORKDIR $workdir, CMD ${cmd[*]}"
[ ${#health[@]} -gt 0 ] || { echo "smoke: the image has no HEALTHCHECK (build with --format docker)" >&2; exit 1; }

mount -t proc proc "$ROOT/proc"
mount --bind /dev "$ROOT/dev"
mount -t tmpfs -o mode=1777 tmpfs "$ROOT/dev/shm" # PostgreSQL's dynamic shared memory
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true

# Runs a command of the image as its user, in its WORKDIR (exec: call it in a subshell or with &).
run_in_image() {
  exec env -i "${env_list[@]}" PORT="$PORT" ${SMOKE_DATABASE_URL:+DATABASE_URL="$SMOKE_DATABASE_URL"} \
    chroot --userspec="$uid_gid" "$ROOT" /bin/sh -c 'cd "$1" && shift && exec "$@"' sh "$workdir" "$@"
}

echo "== Starting the image's CMD on port $PORT"
started=$(date +%s)
run_in_image "${cmd[@]}" >"$LOG" 2>&1 &
SERVER_PID=$!

status=""
while [ $(( $(date +%s) - started )) -lt "$TIMEOUT" ]; do
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "smoke: the server exited before answering; its output:" >&2; cat "$LOG" >&2; exit 1
  fi
  status="$(node -e "fetch('http://127.0.0.1:$PORT/healthz').then(r => console.log(r.status), () => console.log(0))")"
  [ "$status" = 200 ] && break
  sleep 2
done
if [ "$status" != 200 ]; then
  echo "smoke: /healthz did not answer 200 within $TIMEOUT s; output:" >&2; cat "$LOG" >&2; exit 1
fi
echo "   GET /healthz: 200 after $(( $(date +%s) - started )) s"

ready=""
for _ in $(seq 1 30); do
  ready="$(node -e "fetch('http://127.0.0.1:$PORT/readyz').then(async r => console.log(r.status, await r.text()), () => console.log(0))")"
  case "$ready" in 200*) break ;; esac
  sleep 2
done
echo "   GET /readyz: $ready"
case "$ready" in 200*) ;; *) echo "smoke: /readyz is not 200; output:" >&2; cat "$LOG" >&2; exit 1 ;; esac

if (run_in_image "${health[@]}"); then echo "   HEALTHCHECK (${health[*]}): ok"; else echo "smoke: the HEALTHCHECK command failed" >&2; exit 1; fi

echo "== SIGTERM"
kill -TERM "$SERVER_PID"
code=0
wait "$SERVER_PID" || code=$?
SERVER_PID=""
echo "   exit code $code"
tail -n 5 "$LOG" | sed 's/^/   | /'
[ "$code" = 0 ] || { echo "smoke: the server did not stop cleanly; output:" >&2; cat "$LOG" >&2; exit 1; }
echo "container smoke test passed: $IMAGE"
