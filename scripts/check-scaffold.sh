#!/usr/bin/env bash
# Proves the topology scaffold works: in a throwaway worktree of HEAD, `pnpm new:topology` writes a
# package that then passes its type check, its tests (the conformance suite included) and lint.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/repo" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach "$tmp/repo" HEAD >/dev/null
cd "$tmp/repo"
pnpm install --frozen-lockfile --offline >/dev/null
# The repository's own Node (the root devDependency), not whatever Node the machine has.
export PATH="$PWD/node_modules/.bin:$PATH"
[ "$(node --version)" = "v$(cat .nvmrc)" ] || { echo "scaffold check: node is $(node --version), not $(cat .nvmrc)" >&2; exit 1; }
node scripts/new-topology.mjs scaffold-check
pnpm exec turbo run typecheck test --filter=@swarm/scaffold-check --output-logs=errors-only
pnpm exec biome check packages/scaffold-check .changeset
echo "scaffold check: the generated package passes typecheck, tests and lint"
