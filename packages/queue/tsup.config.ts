import { packageBuild } from '../../tsup.shared';

export default packageBuild(['src/index.ts', 'src/testing/index.ts', 'src/swarm-worker.ts']);
