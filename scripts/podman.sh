#!/usr/bin/env bash
# Usage: scripts/podman.sh PODMAN-ARGS…   or   scripts/podman.sh compose PODMAN-COMPOSE-ARGS…
# Runs podman with the project's settings (deploy/image/containers.conf: runc, no default ulimits,
# no systemd) and its own image storage in .cache/podman (git-ignored), so that building and
# running the images touches neither /etc/containers nor the user's own images. CI runs it as root;
# as another user, rootless podman's own needs apply (subordinate ids in /etc/subuid). Where the
# storage's file system takes no overlay mounts, VARSETD_PODMAN_STORAGE_DRIVER=vfs (copies, slower).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
command -v podman >/dev/null 2>&1 || { echo "podman.sh: podman not found (Debian and Ubuntu: apt-get install podman runc)" >&2; exit 127; }

state="$root/.cache/podman"
# Podman's run-time state (locks, mounts) belongs on a file system that a reboot clears.
run="${XDG_RUNTIME_DIR:-/tmp}/varsetd-podman-$(id -u)"
mkdir -p "$state" "$run"
driver=${VARSETD_PODMAN_STORAGE_DRIVER:-overlay}
conf="$state/storage-$driver.conf"
printf '[storage]\ndriver = "%s"\ngraphroot = "%s"\nrunroot = "%s"\n' "$driver" "$state/storage-$driver" "$run/storage-$driver" >"$conf"

export CONTAINERS_CONF="$root/deploy/image/containers.conf"
export CONTAINERS_STORAGE_CONF="$conf"
if [ "${1:-}" = compose ]; then
  shift
  command -v podman-compose >/dev/null 2>&1 || { echo "podman.sh: podman-compose not found (Debian and Ubuntu: apt-get install podman-compose)" >&2; exit 127; }
  exec podman-compose "$@"
fi
exec podman --runtime runc "$@"
