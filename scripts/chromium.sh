#!/usr/bin/env bash
# Prints the path of a headless-capable Chromium for the web UI's browser tests and the pictures
# in docs/web-ui.md, installing Debian's `chromium` package with apt-get when none is there. Nothing
# else ever downloads a browser: the tests drive this one through playwright-core.
set -euo pipefail

find_chromium() {
  for candidate in "${CHROMIUM_PATH:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

if ! find_chromium >/dev/null; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium >&2
fi
path=$(find_chromium) || { echo "chromium.sh: no Chromium after installing Debian's chromium package" >&2; exit 1; }

echo "$path"
