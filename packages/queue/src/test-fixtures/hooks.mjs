// Like vitest's alias, worker processes started by the tests read workspace packages from their
// sources, never from a stale build.
const source = (path) => new URL(`../../../${path}`, import.meta.url).href;
const packages = {
  '@swarm/core': source('core/src/index.ts'),
  '@swarm/core/testing': source('core/src/testing/index.ts'),
  '@swarm/handoff': source('handoff/src/index.ts'),
};

export async function resolve(specifier, context, next) {
  return next(packages[specifier] ?? specifier, context);
}
