/**
 * Import rules checked by `pnpm check:deps` (part of `pnpm lint`, so CI runs it):
 * - no import circle in any package's or app's src (type-only imports count: a circle of types
 *   is still a circle for the reader);
 * - see packages/core/README.md ("How core is built") for core's layers.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle anywhere: split the shared part into a module both sides import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-contracts',
      severity: 'error',
      comment:
        "core's contracts are types only and import nothing else of core (packages/core/README.md, How core is built).",
      from: { path: '^packages/core/src/contracts/', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/core/src/', pathNot: '^packages/core/src/contracts/' },
    },
    {
      name: 'core-kernel',
      severity: 'error',
      comment: "core's kernel imports only the contracts and itself.",
      from: { path: '^packages/core/src/kernel/', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/core/src/', pathNot: '^packages/core/src/(contracts|kernel)/' },
    },
    {
      name: 'core-primitives',
      severity: 'error',
      comment:
        "core's primitives (tools, structured output) and providers import only the layers below them, and each other.",
      from: { path: '^packages/core/src/(primitives|providers)/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^packages/core/src/',
        pathNot: '^packages/core/src/(contracts|kernel|primitives|providers)/',
      },
    },
    {
      name: 'core-agent',
      severity: 'error',
      comment: 'The Agent imports the layers below it, never the composition layer (members, topologies).',
      from: { path: '^packages/core/src/agent/', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/core/src/(composition|testing)/' },
    },
    {
      name: 'core-composition',
      severity: 'error',
      comment: 'The composition layer (members, topologies) never imports the testing helpers.',
      from: { path: '^packages/core/src/composition/', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/core/src/testing/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
    },
  },
};
