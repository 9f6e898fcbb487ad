#!/usr/bin/env bash
# Usage: scripts/build-image.sh [varsetd|postgres]…   (no argument: both)
# Builds the container images from registry packages alone, since no base image can be pulled:
#   varsetd:VERSION (and varsetd:latest): FROM scratch, Node.js from the npm registry's node-linux
#     package (scripts/node.sh), the C libraries it and better-sqlite3 load from Debian's packages,
#     varsetd's build (npm run build) with its production node_modules;
#   varsetd-postgres:15: FROM scratch, PostgreSQL 15 and the libraries it loads from Debian's
#     packages, with busybox's shell for its entrypoint (deploy/image/postgres-entrypoint.sh).
# Each root file system is assembled in .cache/image/NAME/rootfs, the Debian packages are kept in
# .cache/image/debs, then scripts/podman.sh build makes the image (no daemon, no RUN step).
# Needs a Debian or Ubuntu host (apt-get download, dpkg-deb, ldd) with podman; root is not needed.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=26.10.0
POSTGRES_MAJOR=15
IMAGE_UID=10001 # the user varsetd and postgres run as, named in /etc/passwd; also in deploy/image/*.Containerfile
version=$(node -p 'require("./package.json").version')
cache="$(pwd)/.cache/image"
debs="$cache/debs"
mkdir -p "$debs"
[ "$(uname -m)" = x86_64 ] || { echo "build-image: only x86_64 is built for now, not $(uname -m)" >&2; exit 1; }
multiarch=x86_64-linux-gnu

log() { echo "build-image: $*" >&2; }

# The Debian packages holding the shared libraries ELF files load, found by ldd on this host.
# Libraries ldd finds under SKIP (already unpacked there) are left out, and so are the names of the
# files ldd prints when given several (all under SKIP).
library_packages() {
  local skip=$1 found libs owners lib owner
  shift
  found=$(ldd "$@")
  if grep -q 'not found' <<<"$found"; then
    log "libraries not found on this host (install the package that holds the files first):"
    grep 'not found' <<<"$found" | sort -u >&2
    return 1
  fi
  libs=$(awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' <<<"$found" | grep -v "^$skip/" | sort -u)
  # Debian registers a library under /lib or /usr/lib: dpkg -S is asked for both, once for all.
  # shellcheck disable=SC2086 # one path a word
  owners=$(for lib in $libs; do echo "$lib" "/usr${lib#/usr}" "${lib#/usr}"; done | xargs dpkg -S 2>/dev/null || true)
  for lib in $libs; do
    owner=$(awk -v a="$lib" -v b="/usr${lib#/usr}" -v c="${lib#/usr}" '$2 == a || $2 == b || $2 == c { print $1; exit }' <<<"$owners")
    [ -n "$owner" ] || { log "no Debian package holds $lib"; return 1; }
    owner=${owner%:}
    echo "${owner%:amd64}"
  done | sort -u
}

# Unpacks Debian packages into a root file system, each downloaded once into .cache/image/debs
# (by one apt-get download for those missing).
unpack_packages() {
  local root=$1 pkg file files=() missing=()
  shift
  # The file names apt-get download gives the candidate versions (an epoch's colon spelled %3a),
  # asked of apt-cache at once (each call reads the whole package list).
  local names
  names=$(apt-cache show --no-all-versions "$@" 2>/dev/null |
    awk '/^Package:/ { p = $2 } /^Version:/ { v = $2 } /^Architecture:/ { a = $2 } /^$/ && p { gsub(":", "%3a", v); print p " " p "_" v "_" a ".deb"; p = "" } END { if (p) { gsub(":", "%3a", v); print p " " p "_" v "_" a ".deb" } }')
  for pkg in "$@"; do
    file=$(awk -v p="$pkg" '$1 == p { print $2; exit }' <<<"$names")
    [ -n "$file" ] || { log "apt-cache knows no package $pkg (apt-get update first)"; exit 1; }
    files+=("$file")
    [ -f "$debs/$file" ] || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    (cd "$debs" && apt-get download -q "${missing[@]}" >/dev/null 2>&1) || { log "apt-get download ${missing[*]} failed"; exit 1; }
  fi
  for file in "${files[@]}"; do
    [ -f "$debs/$file" ] || { log "apt-get download gave no $file"; exit 1; }
    # --keep-directory-symlink: /lib, /bin… stay links into /usr (merged /usr), as on Debian itself.
    dpkg-deb --fsys-tarfile "$debs/$file" | tar -x --keep-directory-symlink --no-same-owner -C "$root"
    echo "$file" >>"$root/.packages"
  done
}

# A fresh root file system with merged /usr, the users' files, /tmp, and no documentation.
new_rootfs() {
  local root=$1 user=$2 home=$3
  local volume
  volume="$(dirname "$root")/volume"
  rm -rf "$root" "$volume"
  mkdir -p "$root"/{usr/bin,usr/sbin,usr/lib,usr/lib64,etc,tmp,run,var/lib}
  # The home is the data folder, under /var/lib: kept apart, for the Containerfile to copy it owned
  # by the user (COPY --chown of the whole root would give the user every file).
  mkdir -p "$volume/${home#/var/lib/}"
  chmod 0700 "$volume/${home#/var/lib/}"
  ln -s usr/bin "$root/bin"
  ln -s usr/sbin "$root/sbin"
  ln -s usr/lib "$root/lib"
  ln -s usr/lib64 "$root/lib64"
  chmod 1777 "$root/tmp"
  printf 'root:x:0:0:root:/root:/sbin/nologin\n%s:x:%s:%s:%s:%s:/sbin/nologin\n' "$user" "$IMAGE_UID" "$IMAGE_UID" "$user" "$home" >"$root/etc/passwd"
  printf 'root:x:0:\n%s:x:%s:\n' "$user" "$IMAGE_UID" >"$root/etc/group"
  printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"
  : >"$root/.packages"
}

prune_rootfs() {
  local root=$1
  rm -rf "$root"/usr/share/{doc,man,info,lintian,bug}
  find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name 'locale.alias' -exec rm -rf {} + 2>/dev/null || true
  # What dpkg-deb unpacked is listed in the image, for whoever asks what it holds.
  mkdir -p "$root/usr/share/varsetd-image"
  sort "$root/.packages" >"$root/usr/share/varsetd-image/debian-packages"
  rm "$root/.packages"
}

build() {
  local name=$1 tag=$2 context=$3 started=$SECONDS
  cp "deploy/image/$name.Containerfile" "$context/Containerfile"
  bash scripts/podman.sh build --quiet --format docker --file "$context/Containerfile" \
    --label "org.opencontainers.image.version=$version" --tag "$tag" "$context" >/dev/null
  [ "$name" = varsetd ] && bash scripts/podman.sh tag "$tag" varsetd:latest
  log "$tag built by podman in $((SECONDS - started)) s, $(bash scripts/podman.sh image inspect --format '{{.Size}}' "$tag" | awk '{ printf "%.0f MB", $1 / 1e6 }')"
}

build_varsetd() {
  local started=$SECONDS context="$cache/varsetd" node_bin app
  local root="$context/rootfs"
  node_bin=$(bash scripts/node.sh "$NODE_VERSION")
  log "varsetd $version on Node.js $NODE_VERSION"
  npm run --silent build >/dev/null

  new_rootfs "$root" varsetd /var/lib/varsetd
  mkdir -p "$root/usr/local/bin"
  cp "$node_bin/node" "$root/usr/local/bin/node"

  # varsetd as its package holds it (package.json's files), with the production dependencies of
  # the lock file: better-sqlite3 brings its own linux-x64 build, so nothing compiles here.
  app="$root/app"
  mkdir -p "$app"
  cp package.json package-lock.json CHANGELOG.md "$app/"
  tar -c --exclude='*.map' --exclude=.tsbuildinfo --exclude=web.build-stamp --exclude=web.build-lock dist | tar -x -C "$app"
  (cd "$app" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
  local sqlite="$app/node_modules/better-sqlite3"
  [ -f "$sqlite/prebuilds/linux-x64.node" ] || { log "better-sqlite3 has no prebuilds/linux-x64.node"; exit 1; }
  # Other platforms' builds, and the C sources they were built from.
  find "$sqlite/prebuilds" -name '*.node' ! -name linux-x64.node -delete
  rm -rf "$sqlite/deps" "$sqlite/src"
  cp deploy/image/healthcheck.mjs "$app/healthcheck.mjs"

  local libs
  libs=$(library_packages "$root" "$root/usr/local/bin/node" "$sqlite/prebuilds/linux-x64.node")
  # shellcheck disable=SC2086 # one package name a word
  unpack_packages "$root" $libs
  rm -rf "$root/usr/lib/$multiarch/gconv" # iconv's modules: Node.js carries ICU for its encodings
  prune_rootfs "$root"
  log "rootfs of varsetd: $(du -sm "$root" | cut -f1) MB in $((SECONDS - started)) s"
  build varsetd "varsetd:$version" "$context"
}

build_postgres() {
  local started=$SECONDS context="$cache/postgres" pkg
  local root="$context/rootfs" pg="usr/lib/postgresql/$POSTGRES_MAJOR"
  pkg="postgresql-$POSTGRES_MAJOR"
  new_rootfs "$root" postgres /var/lib/postgresql/data
  # The client package holds pg_isready (the health check) and psql; libpq5 the client library of
  # PostgreSQL's own programs; tzdata the time zones it is built to read.
  unpack_packages "$root" "$pkg" "postgresql-client-$POSTGRES_MAJOR" libpq5 tzdata busybox-static
  # The JIT compiler's module would bring LLVM (over 100 MB): without it, PostgreSQL runs queries without JIT.
  rm -rf "$root/$pg/lib/llvmjit"* "$root/$pg/lib/bitcode"
  # ldd of the unpacked files finds the libraries not unpacked yet on this host, of the same Debian release.
  local libs
  libs=$(LD_LIBRARY_PATH="$root/usr/lib/$multiarch" library_packages "$root" "$root/$pg/bin/"* "$root/$pg/lib/"*.so)
  # shellcheck disable=SC2086 # one package name a word
  unpack_packages "$root" $libs
  # The entrypoint's shell and the few commands it runs, from busybox.
  local applet
  for applet in sh cat mkdir chmod rm mktemp; do ln -s busybox "$root/usr/bin/$applet"; done
  mkdir -p "$root/usr/local/bin"
  cp deploy/image/postgres-entrypoint.sh "$root/usr/local/bin/postgres-entrypoint"
  chmod 0755 "$root/usr/local/bin/postgres-entrypoint"
  prune_rootfs "$root"
  log "rootfs of PostgreSQL $POSTGRES_MAJOR: $(du -sm "$root" | cut -f1) MB in $((SECONDS - started)) s"
  build postgres "varsetd-postgres:$POSTGRES_MAJOR" "$context"
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(varsetd postgres)
for target in "${targets[@]}"; do
  case "$target" in
    varsetd) build_varsetd ;;
    postgres) build_postgres ;;
    *) log "unknown image $target (varsetd or postgres)"; exit 2 ;;
  esac
done
# The images a build replaces stay in the storage, untagged: removed, so that .cache/podman does
# not grow by an image a build.
bash scripts/podman.sh image prune --force >/dev/null
