import { packageBuild } from '../../tsup.shared';

export default packageBuild({
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
  'testing/vitest': 'src/testing/vitest.ts',
});
