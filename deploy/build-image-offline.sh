#!/usr/bin/env bash
# Builds the pyodide-mcp container image without a container registry, then runs it the way
# deploy/kubernetes/statefulset.yaml does and checks it. deploy/Containerfile is the normal build (FROM node:24-slim,
# pulled from a registry); this one starts FROM scratch with what the npm registry and the host provide:
#   - Node's own linux binary (the npm package node-<os>-<arch>@NODE_VERSION, as .ci/run uses) and the few shared
#     libraries it links (glibc, libstdc++, libgcc_s: `ldd`), copied from the host;
#   - the package as `npm pack` makes it (the build runs in `prepare`), its production dependencies installed from
#     package-lock.json (`npm ci --omit=dev`), and the modern runtime's wheels when this machine has them (the
#     package's wheels/, else the per-user cache that `pyodide-mcp fetch-wheels` fills): the Containerfile fetches
#     them from the Pyodide CDN instead; without them the image runs the modern runtime with no preload, and the
#     legacy runtime (which ships its packages in its npm package) for the scientific preload;
#   - a user `node` (uid 1000) and the two writable mount points.
# The image's run-time configuration (user, environment, port, stop signal, entrypoint) is the last stage of
# deploy/Containerfile, read from that file, so both builds start the server the same way.
#
# The check (skip it with --no-check) runs the image with a read-only root file system, no network but the
# container's loopback, tmpfs for /tmp and the snapshot cache, and a host directory as the state volume; inside it
# (scripts/image-check.ts, through `podman exec`) /healthz must say ready, execute_code must run over MCP with the
# bearer token, a write to the root file system must fail and a public address must be unreachable. Then SIGTERM must
# drain it (exit 0), and a second container on the same state volume must restore the session.
#
# Usage: deploy/build-image-offline.sh [--no-check]     (as root, or as a user podman runs rootless for)
# Env:   IMAGE (pyodide-mcp:offline), NODE_VERSION (24.21.0), OCI_RUNTIME (a podman --runtime, e.g. runc: crun refuses
#        hosts whose cgroups are mounted in hybrid mode), KEEP_WORK=1 keeps the staging directory.
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE="${IMAGE:-pyodide-mcp:offline}"
NODE_VERSION="${NODE_VERSION:-24.21.0}"
CHECK=1
[[ "${1:-}" == "--no-check" ]] && CHECK=0
podman=(podman)
[[ -n "${OCI_RUNTIME:-}" ]] && podman+=(--runtime "$OCI_RUNTIME")
started=$(date +%s)
say() { echo "build-image-offline: $*" >&2; }

work="$(mktemp -d)"
containers=()
cleanup() {
  for name in "${containers[@]}"; do "${podman[@]}" rm -f "$name" >/dev/null 2>&1 || true; done
  if [[ "${KEEP_WORK:-}" == 1 ]]; then say "staging kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
root="$work/rootfs"
owned="$work/owned"
mkdir -p "$root/app" "$root/usr/local/bin" "$root/etc" "$root/tmp" "$owned/home/node" "$owned/var/lib/pyodide-mcp" \
  "$owned/var/cache/pyodide-mcp"
chmod 1777 "$root/tmp"
chmod 700 "$owned/home/node" "$owned/var/lib/pyodide-mcp" "$owned/var/cache/pyodide-mcp"

say "npm pack (builds the package)"
npm pack --silent --pack-destination "$work" >/dev/null
tar -xzf "$work"/pyodide-mcp-*.tgz -C "$root/app" --strip-components=1
cp package-lock.json "$root/app/"
say "production dependencies (npm ci --omit=dev)"
# No dependency has an install script; the package's own postinstall (the wheels download) is what --ignore-scripts skips.
(cd "$root/app" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --silent)

pyodide_version="$(node -p "require('$root/app/node_modules/pyodide/package.json').version")"
cache_wheels="${XDG_CACHE_HOME:-$HOME/.cache}/pyodide-mcp/$pyodide_version/wheels"
if compgen -G "$root/app/wheels/*.whl" >/dev/null; then
  say "wheels: the package's own ($(ls "$root/app/wheels"/*.whl | wc -l) files)"
elif compgen -G "$cache_wheels/*.whl" >/dev/null; then
  cp "$cache_wheels"/*.whl "$root/app/wheels/"
  say "wheels: $(ls "$root/app/wheels"/*.whl | wc -l) files from $cache_wheels"
else
  say "wheels: none on this machine (npm run wheels:fetch needs the Pyodide CDN): the image runs the modern runtime without preload, the legacy one for the scientific stack"
fi

platform="$(node -p 'process.platform + "-" + process.arch')"
say "Node $NODE_VERSION (npm package node-$platform)"
npm install --no-save --no-audit --no-fund --silent --prefix "$work/node" "node-$platform@$NODE_VERSION"
node_bin="$work/node/node_modules/node-$platform/bin/node"
[[ "$("$node_bin" --version)" == "v$NODE_VERSION" ]] || { say "expected Node $NODE_VERSION at $node_bin"; exit 1; }
cp "$node_bin" "$root/usr/local/bin/node"
# The shared libraries it links, at the paths the binary asks for (the loader's own path is fixed in the binary).
while read -r lib; do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done < <(ldd "$node_bin" | grep -o '/[^ ]*')

printf 'root:x:0:0:root:/root:/sbin/nologin\nnode:x:1000:1000:node:/home/node:/sbin/nologin\n' >"$root/etc/passwd"
printf 'root:x:0:\nnode:x:1000:\n' >"$root/etc/group"

# FROM scratch, then the final stage of deploy/Containerfile without its FROM and its COPY of the build stage.
{
  echo 'FROM scratch'
  echo 'COPY rootfs/ /'
  echo 'COPY --chown=1000:1000 owned/ /'
  awk '/^FROM /{stage=""; next} {stage = stage $0 "\n"} END{printf "%s", stage}' deploy/Containerfile | grep -v '^COPY --from='
} >"$work/Containerfile"
say "buildah bud -t $IMAGE"
previous="$("${podman[@]}" image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)"
buildah bud --quiet --layers=false -f "$work/Containerfile" -t "$IMAGE" "$work" >/dev/null
# The image this tag named before, now untagged (kept if a container still uses it).
if [[ -n "$previous" && "$previous" != "$("${podman[@]}" image inspect --format '{{.Id}}' "$IMAGE")" ]]; then
  "${podman[@]}" rmi "$previous" >/dev/null 2>&1 || true
fi
say "built $IMAGE: $("${podman[@]}" image inspect "$IMAGE" --format '{{.Size}}' | awk '{printf "%d MB", $1 / 1e6}') in $(($(date +%s) - started)) s"
((CHECK)) || exit 0

# The check: as deploy/kubernetes/statefulset.yaml runs it (read-only root, writable mounts only, no egress).
checked=$(date +%s)
state="$work/state"
mkdir -m 700 "$state"
chown 1000:1000 "$state" 2>/dev/null || say "cannot chown the state directory to uid 1000 (rootless podman maps it)"
token="$(node -p "require('node:crypto').randomBytes(24).toString('base64url')")"
nofile="$(ulimit -Hn)"
[[ "$nofile" == unlimited ]] && nofile=1048576
run() {
  local name="$1"
  containers+=("$name")
  # --ulimit: podman's default open-file limit is above what a process without CAP_SYS_RESOURCE may set.
  "${podman[@]}" run -d --name "$name" --read-only --read-only-tmpfs=false --network none \
    --ulimit "nofile=$nofile:$nofile" --ulimit nproc=4096:4096 \
    --tmpfs /tmp:rw,mode=1777 --tmpfs /var/cache/pyodide-mcp:rw,mode=700,U \
    -v "$state:/var/lib/pyodide-mcp" \
    -e PYODIDE_MCP_INSTANCE_ID=offline-0 -e PYODIDE_MCP_AUTH_TOKEN="$token" \
    -e PYODIDE_MCP_PRELOAD=none -e PYODIDE_MCP_WARM_SESSIONS=1 "$IMAGE" >/dev/null
}
check() {
  # scripts/image-check.ts, compiled by the build that `npm pack` ran.
  "${podman[@]}" exec -i -e IMAGE_CHECK_SESSION="${1:-}" "$2" node --input-type=module - <dist/scripts/image-check.js
}
run pyodide-mcp-offline-a
first="$(check "" pyodide-mcp-offline-a)" || { "${podman[@]}" logs pyodide-mcp-offline-a >&2; exit 1; }
say "first container: $first"
session="$(node -p "JSON.parse(process.argv[1]).session_id" "$first")"
"${podman[@]}" stop -t 30 pyodide-mcp-offline-a >/dev/null
code="$("${podman[@]}" inspect pyodide-mcp-offline-a --format '{{.State.ExitCode}}')"
"${podman[@]}" logs pyodide-mcp-offline-a 2>&1 | grep -q 'shutting down (SIGTERM)' || { say "no drain on SIGTERM"; exit 1; }
[[ "$code" == 0 ]] || { say "exit code $code after SIGTERM"; exit 1; }
say "SIGTERM: drained, exit 0"
run pyodide-mcp-offline-b
second="$(check "$session" pyodide-mcp-offline-b)" || { "${podman[@]}" logs pyodide-mcp-offline-b >&2; exit 1; }
say "second container, same state volume: $second"
node -e "const r = JSON.parse(process.argv[1]); if (r.result !== '42' || !r.restored) process.exit(1)" "$second" ||
  { say "the session was not restored with x"; exit 1; }
say "checked in $(($(date +%s) - checked)) s; all in $(($(date +%s) - started)) s"
