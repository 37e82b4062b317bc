import net from 'node:net';

// Tests may talk to servers on this machine (the mock provider server) and nothing else: a test
// that reaches for a real API fails loudly instead of passing on a developer's laptop with a key.
const loopback = new Set(['127.0.0.1', 'localhost', '::1', '0:0:0:0:0:0:0:1']);
const originalConnect = net.Socket.prototype.connect;

function hostOf(rawArgs: unknown[]): string | undefined {
  // net.connect() passes its normalized arguments to Socket#connect as one array.
  const args = Array.isArray(rawArgs[0]) ? (rawArgs[0] as unknown[]) : rawArgs;
  const [first, second] = args;
  if (typeof first === 'object' && first !== null) {
    const options = first as { host?: string; path?: string };
    if (options.path) return 'localhost';
    return options.host ?? 'localhost';
  }
  if (typeof first === 'string' && Number.isNaN(Number(first))) return 'localhost';
  return typeof second === 'string' ? second : 'localhost';
}

net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
  const host = hostOf(args);
  if (host !== undefined && !loopback.has(host)) {
    throw new Error(`Network access to ${host} is blocked in tests: only loopback is allowed.`);
  }
  return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;
