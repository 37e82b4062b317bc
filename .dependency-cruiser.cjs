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
      name: 'core-layers',
      severity: 'error',
      comment:
        "core's layers import only those below them (packages/core/README.md, How core is built): contracts import nothing else of core.",
      from: { path: '^packages/core/src/contracts/' },
      to: { path: '^packages/core/src/', pathNot: '^packages/core/src/contracts/' },
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
