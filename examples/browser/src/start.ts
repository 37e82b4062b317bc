// `pnpm example browser`: bundles the page and serves it on a loopback port until Ctrl-C.
import { servePage } from './server.js';

const page = await servePage();
console.log(`Open ${page.url} in a browser (Ctrl-C stops the server).`);
process.once('SIGINT', () => {
  void page.close().then(() => process.exit(0));
});
