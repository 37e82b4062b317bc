import type { SwarmEvent, Usage } from '@swarm/core';

/** Live progress of a run on a terminal: calls, tokens, elapsed time and the agent at work. */
export interface Progress {
  onEvent(event: SwarmEvent): void;
  stop(): void;
}

/**
 * One status line on `stream`, redrawn as events arrive and every 200 ms; nothing at all when the
 * stream is not a terminal, so logs and pipes stay clean.
 */
export function progress(stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { onEvent() {}, stop() {} };
  const started = performance.now();
  let calls = 0;
  let tokens = 0;
  let agent = '';
  let frame = 0;
  const spinner = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
  const draw = () => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const line = `${spinner[frame++ % spinner.length]} ${seconds}s · ${calls} call(s) · ${tokens.toLocaleString('en-US')} tokens${agent ? ` · ${agent}` : ''}`;
    // A pseudo-terminal may report 0 columns: that is an unknown width, not a narrow one.
    const columns = stream.columns > 0 ? stream.columns : 80;
    stream.write(`\r\x1b[2K${line.slice(0, Math.max(20, columns - 1))}`);
  };
  const timer = setInterval(draw, 200);
  return {
    onEvent(event) {
      if (event.type === 'model.request') {
        calls += 1;
        if (event.agent) agent = event.agent;
      }
      if (event.type === 'model.response') tokens += (event.usage as Usage | undefined)?.totalTokens ?? 0;
      draw();
    },
    stop() {
      clearInterval(timer);
      stream.write('\r\x1b[2K');
    },
  };
}
