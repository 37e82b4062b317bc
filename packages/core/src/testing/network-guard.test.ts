import net from 'node:net';
import { describe, expect, it } from 'vitest';

describe('the shared test setup', () => {
  it('blocks a connection to a host other than loopback', () => {
    expect(() => net.connect({ host: 'api.openai.com', port: 443 })).toThrow(/blocked in tests/);
  });

  it('blocks fetch to a real API', async () => {
    const error = await fetch('https://api.anthropic.com/v1/messages').catch((e: unknown) => e);
    expect(String((error as Error).cause)).toMatch(/blocked in tests/);
  });

  it('allows loopback', async () => {
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const socket = net.connect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve, reject) => {
      socket.on('connect', resolve);
      socket.on('error', reject);
    });
    socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
});
