// A loopback npm registry serving packed tarballs by package name, so npm installs a scope's
// packages exactly as users will once they are published (`npm i -g @swarm/cli`, `npx @swarm/cli`),
// resolving their workspace dependencies to the other tarballs. Only the scope is routed here (the
// `npm_config_@scope:registry` variable in `env`); npm fetches everything else from its usual registry.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * Starts the registry on 127.0.0.1 for `packages` (`{ manifest, tarball }`: the package.json inside
 * the tarball and its path). A name it does not hold is a 404, as an unpublished package would be.
 */
export async function tarballRegistry(packages, scope) {
  const tarballs = [];
  const packuments = new Map();
  const requests = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://registry').pathname).slice(1);
    requests.push(`${req.method} /${path}`);
    const tarball = /^-\/tarballs\/(\d+)\.tgz$/.exec(path);
    const body = tarball ? tarballs[Number(tarball[1])] : packuments.get(path);
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `${path} is not among the packed tarballs` }));
      return;
    }
    res.writeHead(200, { 'content-type': tarball ? 'application/octet-stream' : 'application/json' });
    res.end(body);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${server.address().port}/`;

  for (const { manifest, tarball } of packages) {
    const data = readFileSync(tarball);
    const { name, version } = manifest;
    const packument = {
      name,
      'dist-tags': { latest: version },
      versions: {
        [version]: {
          ...manifest,
          _id: `${name}@${version}`,
          dist: {
            tarball: `${url}-/tarballs/${tarballs.length}.tgz`,
            integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
            shasum: createHash('sha1').update(data).digest('hex'),
          },
        },
      },
    };
    tarballs.push(data);
    packuments.set(name, JSON.stringify(packument));
  }

  return {
    url,
    /** Environment that routes the scope's packages to this registry. */
    env: { [`npm_config_${scope}:registry`]: url },
    /** Every request, as `METHOD /path`, to tell what npm fetched from here. */
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}
