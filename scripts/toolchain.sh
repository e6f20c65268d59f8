#!/bin/sh
# Runs a command with the project's pinned Node.js and pnpm on PATH, installing
# them (from the npm registry, into .toolchain/) and the workspace's dependencies
# first when they are missing or stale. A fresh machine needs only Node.js + npm.
#
#   sh scripts/toolchain.sh pnpm run build
set -eu

root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
tools="$root/.toolchain"
node_version=$(cat "$root/.node-version")
pnpm_version=$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$root/package.json")
mkdir -p "$tools/bin"

say() { printf 'toolchain: %s\n' "$*" >&2; }

# Node.js: use the one on PATH when it is recent enough (MikroORM 7 needs >= 22.17),
# otherwise the pinned node-linux-<arch> package from the npm registry.
node_ok() {
  "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=17)?0:1)' 2>/dev/null
}
if [ -x "$tools/bin/node" ] && node_ok "$tools/bin/node"; then
  :
elif command -v node >/dev/null 2>&1 && node_ok "$(command -v node)"; then
  ln -sf "$(command -v node)" "$tools/bin/node"
else
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) say "no prebuilt Node.js package for $(uname -m); install Node.js >= 22.17 yourself"; exit 1 ;;
  esac
  say "installing Node.js $node_version (node-linux-$arch) into .toolchain/"
  npm install --prefix "$tools/node" --no-save --no-audit --no-fund --loglevel=error "node-linux-$arch@$node_version" >&2
  ln -sf "$tools/node/node_modules/node-linux-$arch/bin/node" "$tools/bin/node"
  # Native addons must build against the headers of the Node.js that runs them.
  echo "$tools/node/node_modules/node-linux-$arch" > "$tools/nodedir"
fi

# pnpm: the version pinned in package.json's packageManager (corepack is not used).
if [ ! -x "$tools/bin/pnpm" ] || [ "$("$tools/bin/pnpm" --version 2>/dev/null)" != "$pnpm_version" ]; then
  say "installing pnpm $pnpm_version into .toolchain/"
  PATH="$tools/bin:$PATH" npm install --prefix "$tools/pnpm" --no-save --no-audit --no-fund --loglevel=error "pnpm@$pnpm_version" >&2
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$tools/bin/node" "$tools/pnpm/node_modules/pnpm/bin/pnpm.cjs" > "$tools/bin/pnpm"
  chmod +x "$tools/bin/pnpm"
fi

PATH="$tools/bin:$PATH"
export PATH
if [ -f "$tools/nodedir" ]; then
  npm_config_nodedir=$(cat "$tools/nodedir")
  export npm_config_nodedir
fi

# Dependencies: install when the lockfile or a manifest changed since the last install.
stamp="$root/node_modules/.toolchain-stamp"
# The workspace manifests only: node_modules/*/package.json appear with the install itself.
want=$(cat "$root/pnpm-lock.yaml" "$root/pnpm-workspace.yaml" "$root"/package.json "$root"/apps/*/package.json "$root"/packages/*/package.json "$root"/tooling/*/package.json 2>/dev/null | cksum)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  say "installing dependencies"
  (cd "$root" && pnpm install --frozen-lockfile --reporter=append-only >&2)
  echo "$want" > "$stamp"
fi

# Where the command was run from, for the paths an operator types (apps/server/src/cli/operator-path.ts):
# npm and pnpm give it as INIT_CWD, but the pnpm run below sets INIT_CWD again to the directory it
# runs in, so it is kept here under a name of its own, once, by the outermost call.
: "${SHORTLINKS_CALLER_DIR:=${INIT_CWD:-$PWD}}"
export SHORTLINKS_CALLER_DIR

exec "$@"
