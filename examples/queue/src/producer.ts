import { errorMessage } from '@swarm/core';
import { SwarmQueue } from '@swarm/queue';

// The producer: any process that reaches Redis. It enqueues runs by topology name and waits for
// their results; the worker processes do the work.

/** Sends a batch and a three-turn conversation to the workers and prints what comes back. */
export async function produce(redisUrl: string): Promise<void> {
  const queue = new SwarmQueue({ name: 'support', connection: redisUrl });
  try {
    const questions = [
      'How do I reset my password?',
      'Can I change the billing date?',
      'Is there an API rate limit?',
      'Where do I download invoices?',
    ];
    console.log(`A batch of ${questions.length}, spread over the workers (results in input order):`);
    const settled = await queue.batchedRun('helpdesk', questions);
    for (const [i, outcome] of settled.entries()) {
      console.log(
        `  ${i + 1}. ${outcome.status === 'fulfilled' ? outcome.value.output : `failed: ${errorMessage(outcome.reason)}`}`,
      );
    }

    console.log(
      '\nOne conversation, its turns taken by whichever worker is free (the session lives in Redis):',
    );
    const sessionId = `conversation-${Date.now()}`;
    for (const message of ['I was charged twice.', 'It was invoice 42.', 'Thanks, that fixed it.']) {
      // events: true, so the workers publish this run's trace (they publish nothing otherwise).
      const job = await queue.enqueue('helpdesk', message, { sessionId, events: true });
      for await (const event of job.events()) {
        if (event.type === 'run.start') console.log(`  > ${message}`);
      }
      console.log(`  < ${(await job.result()).output}`);
    }
  } finally {
    await queue.close();
  }
}

// Run directly (`pnpm producer`), it talks to REDIS_URL and the workers you started.
if (import.meta.url === `file://${process.argv[1]}`) {
  produce(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').catch((error: unknown) => {
    console.error(errorMessage(error));
    process.exit(1);
  });
}
