import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { ModelRequest, ModelResponse } from '../contracts/model.js';
import { type RunPausedError, SwarmError } from '../kernel/errors.js';
import type { DecisionEntry, Journal, JournalEntry, JournalLease } from '../kernel/journal.js';
import { tool } from '../primitives/tool.js';
import { respond, ScriptedModel } from './scripted-model.js';
import type { ConformanceCheck } from './topology-conformance.js';
import { ConformanceError } from './topology-conformance.js';

/** What `journalConformance` needs: how to make the store under test, and its fault hooks. */
export interface JournalConformanceOptions {
  /** A fresh store (or one whose runs the suite's ids do not collide with: every check picks new run ids). */
  create: () => Journal | Promise<Journal>;
  /** Closes a store `create` made (a connection, a pool), after each check. */
  close?: (journal: Journal) => void | Promise<void>;
  /**
   * Leaves the run's stored entries as a crash in the middle of an append would (half a line, half
   * a record), and returns the store a restarted process would open on them (default `journal`).
   * Without it give `atomicAppends`: why an append cannot be torn in this store.
   */
  tear?: (journal: Journal, runId: string) => Promise<Journal | void>;
  /** Why this store never holds a torn append (it appends atomically): the torn check is then skipped. */
  atomicAppends?: string;
  /**
   * Rewrites the run's format header (or however the store marks the format that wrote a run) to
   * `version`. Without it give `noHeader`: why this store keeps no format version.
   */
  setFormatVersion?: (journal: Journal, runId: string, version: number) => Promise<void>;
  /** Why the store keeps no format version (it never outlives the process): the version check is skipped. */
  noHeader?: string;
  /** Why the store takes no leases (one process per run is then up to its user): the fencing checks are skipped. */
  unfenced?: string;
}

let counter = 0;
const runIdOf = (what: string) =>
  `conformance-${what}-${process.pid}-${Date.now().toString(36)}-${counter++}`;

const usage = { inputTokens: 3, outputTokens: 2, cachedTokens: 0, reasoningTokens: 0, totalTokens: 5 };

function modelEntry(key: string, text: string): JournalEntry {
  return {
    type: 'model',
    key,
    path: ['run', 'agent'],
    agent: 'agent',
    model: 'test-model',
    response: { text, toolCalls: [], usage, finishReason: 'stop', modelId: 'test-model' },
  };
}

function fail(message: string): never {
  throw new ConformanceError(message);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error ?? new Error('rejected with nothing'),
  );
}

function isLocked(error: unknown): boolean {
  return SwarmError.isInstance(error) && error.code === 'RUN_LOCKED';
}

/**
 * The checks every journal store must pass, as `{ name, run }` (register them with your test
 * runner, or use `journalConformanceTests` from `@swarm/core/testing/vitest`): entries read back
 * in order and whole; concurrent appends all kept; an entry off the contract refused at the append
 * (an off-contract finish reason written as `other`); a torn append ignored on read; a run of
 * another format version refused; leases that fence off an older holder and let the next one in
 * once released; approvals and decisions kept; and a journaled Agent run that pauses, resumes on a
 * decision and replays without repeating a model call or a tool.
 */
export function journalConformance(options: JournalConformanceOptions): ConformanceCheck[] {
  const withStore = (name: string, run: (journal: Journal) => Promise<void>): ConformanceCheck => ({
    name,
    run: async () => {
      const journal = await options.create();
      try {
        await run(journal);
      } finally {
        await options.close?.(journal);
      }
    },
  });
  const checks: ConformanceCheck[] = [
    withStore('reads a run it never saw as empty', async (journal) => {
      const entries = await journal.read(runIdOf('empty'));
      if (entries.length !== 0) fail(`a new run read ${entries.length} entries, not none.`);
    }),
    withStore('reads every entry back in the order appended, each as written', async (journal) => {
      const runId = runIdOf('order');
      const written: JournalEntry[] = [
        modelEntry('a#0', 'first'),
        {
          type: 'tool',
          key: 'a#0/0',
          path: ['run', 'agent'],
          agent: 'agent',
          tool: 'lookup',
          toolCallId: 'call_1',
          result: 'found "it" \u2713',
          isError: false,
        },
        modelEntry('b#0', 'second\nline'),
        modelEntry('a#1', 'third'),
      ];
      for (const entry of written) await journal.append(runId, entry);
      const read = await journal.read(runId);
      if (JSON.stringify(read) !== JSON.stringify(written)) {
        fail(`read back ${JSON.stringify(read)}, not the entries appended ${JSON.stringify(written)}.`);
      }
    }),
    withStore('keeps every one of many concurrent appends, whole', async (journal) => {
      const runId = runIdOf('concurrent');
      const keys = Array.from({ length: 24 }, (_, i) => `k${i}#0`);
      await Promise.all(keys.map((key) => journal.append(runId, modelEntry(key, `answer ${key}`))));
      const read = await journal.read(runId);
      const got = read.map((entry) => entry.key).sort();
      if (JSON.stringify(got) !== JSON.stringify([...keys].sort())) {
        fail(`after ${keys.length} concurrent appends the run read ${JSON.stringify(got)}.`);
      }
      for (const entry of read) {
        if (entry.type !== 'model' || entry.response.text !== `answer ${entry.key}`) {
          fail(`an entry came back changed: ${JSON.stringify(entry)}.`);
        }
      }
    }),
    withStore('refuses an entry off the contract at the append, and keeps nothing of it', async (journal) => {
      const runId = runIdOf('contract');
      const bad = { type: 'model', key: 'x#0', path: ['run'], model: 'm', response: { text: 1 } };
      const error = await rejection(journal.append(runId, bad as unknown as JournalEntry));
      if (!(SwarmError.isInstance(error) && error.code === 'CONFIG')) {
        fail(
          `an entry with no valid response was ${error ? `refused with ${String(error)}` : 'accepted'}, not refused with a ConfigError.`,
        );
      }
      const offReason = modelEntry('y#0', 'ok') as Extract<JournalEntry, { type: 'model' }>;
      const odd = { ...offReason, response: { ...offReason.response, finishReason: 'max_tokens' } };
      const oddError = await rejection(journal.append(runId, odd as unknown as JournalEntry));
      const read = await journal
        .read(runId)
        .catch((e: unknown) =>
          fail(`after an off-contract finish reason the run cannot be read: ${String(e)}.`),
        );
      if (read.some((entry) => entry.key === 'x#0')) fail('the refused entry was kept.');
      const kept = read.find((entry) => entry.key === 'y#0');
      if (oddError === undefined && kept === undefined) fail('an accepted append was not kept.');
      if (kept?.type === 'model' && kept.response.finishReason !== 'other') {
        fail(
          `an off-contract finish reason was kept as ${JSON.stringify(kept.response.finishReason)}, not "other".`,
        );
      }
    }),
    withStore('keeps approvals and decisions, who decided and when included', async (journal) => {
      const runId = runIdOf('approvals');
      const approval: JournalEntry = {
        type: 'approval',
        key: 'a#0/0',
        approval: {
          id: '0123456789abcdef',
          runId,
          path: ['agent'],
          agent: 'agent',
          tool: 'pay',
          arguments: { amount: 10 },
          argumentsHash: '0123456789abcdef0123456789abcdef',
        },
      };
      const decision: DecisionEntry = {
        type: 'decision',
        key: 'a#0/0',
        id: '0123456789abcdef',
        approved: false,
        message: 'Too much',
        by: 'ana@example.com',
        at: '2026-01-02T03:04:05.000Z',
      };
      await journal.append(runId, approval);
      await journal.append(runId, decision);
      const read = await journal.read(runId);
      if (JSON.stringify(read) !== JSON.stringify([approval, decision])) {
        fail(`read back ${JSON.stringify(read)}, not the approval and the decision appended.`);
      }
    }),
  ];

  checks.push(
    options.tear
      ? withStore('ignores an append torn by a crash, and appends after it', async (journal) => {
          const runId = runIdOf('torn');
          await journal.append(runId, modelEntry('a#0', 'kept'));
          const restarted = (await options.tear!(journal, runId)) ?? journal;
          const read = await restarted.read(runId);
          if (read.length !== 1 || read[0]!.key !== 'a#0') {
            fail(`after a torn append the run read ${JSON.stringify(read)}, not the one whole entry.`);
          }
          await restarted.append(runId, modelEntry('b#0', 'after'));
          const after = (await restarted.read(runId)).map((entry) => entry.key);
          if (JSON.stringify(after) !== JSON.stringify(['a#0', 'b#0'])) {
            fail(`an append after a torn one read back as ${JSON.stringify(after)}.`);
          }
        })
      : skipped(
          'ignores an append torn by a crash, and appends after it',
          options.atomicAppends,
          'tear or atomicAppends',
        ),
  );
  checks.push(
    options.setFormatVersion
      ? withStore('refuses a run written by another format version, naming it', async (journal) => {
          const runId = runIdOf('version');
          await journal.append(runId, modelEntry('a#0', 'v1'));
          await options.setFormatVersion!(journal, runId, 99);
          const error = await rejection(journal.read(runId));
          if (!(SwarmError.isInstance(error) && error.code === 'CONFIG' && error.message.includes('99'))) {
            fail(
              `a run of format 99 read ${error ? `as ${String(error)}` : 'as if it were ours'}, not a ConfigError naming format 99.`,
            );
          }
        })
      : skipped(
          'refuses a run written by another format version, naming it',
          options.noHeader,
          'setFormatVersion or noHeader',
        ),
  );
  if (options.unfenced !== undefined) {
    checks.push(skipped('fences off an older lease holder', options.unfenced, 'unfenced'));
  } else {
    checks.push(
      withStore(
        'fences off an older lease holder: its appends are refused once another holds the run',
        async (journal) => {
          const runId = runIdOf('fence');
          const first = await acquire(journal, runId);
          await journal.append(runId, modelEntry('a#0', 'first holder'), first);
          const second = await rejection(acquire(journal, runId));
          let newer: JournalLease;
          if (second !== undefined) {
            if (!isLocked(second))
              fail(`a second acquire failed with ${String(second)}, not RunLockedError.`);
            const holder = (second as { holder?: { id?: unknown } }).holder;
            if (typeof holder?.id !== 'string')
              fail('the RunLockedError of a second acquire names no holder.');
            // Refused while held: let it go, then the next holder takes it.
            await journal.releaseLease!(first);
            newer = await acquire(journal, runId);
          } else {
            newer = await acquire(journal, runId).catch(() =>
              fail('a third acquire failed after a takeover.'),
            );
            // This store lets a new holder take the run: the two older leases must be fenced off.
          }
          if (!(newer.token > first.token))
            fail(`a newer lease has token ${newer.token}, not more than ${first.token}.`);
          const stale = await rejection(journal.append(runId, modelEntry('b#0', 'stale holder'), first));
          if (!isLocked(stale)) {
            fail(
              `an append with a stale lease was ${stale ? `refused with ${String(stale)}` : 'accepted'}, not refused with RunLockedError.`,
            );
          }
          await journal.append(runId, modelEntry('c#0', 'new holder'), newer);
          const keys = (await journal.read(runId)).map((entry) => entry.key);
          if (JSON.stringify(keys) !== JSON.stringify(['a#0', 'c#0'])) {
            fail(
              `the run read ${JSON.stringify(keys)}: the stale holder's append was kept, or the new one's lost.`,
            );
          }
          await journal.releaseLease!(newer);
        },
      ),
      withStore('lets the next holder take a released run at once, with a newer token', async (journal) => {
        const runId = runIdOf('release');
        const first = await acquire(journal, runId);
        await journal.releaseLease!(first);
        const next = await acquire(journal, runId).catch((error: unknown) =>
          fail(`a released run could not be taken again: ${String(error)}.`),
        );
        if (!(next.token > first.token))
          fail(`the next lease has token ${next.token}, not more than ${first.token}.`);
        await journal.releaseLease!(next);
      }),
    );
  }
  checks.push(
    withStore(
      'runs an Agent that pauses for approval, resumes on a decision, and replays without repeating anything',
      async (journal) => {
        const runId = runIdOf('agent');
        const executed: number[] = [];
        let asked = 0;
        const pay = tool({
          name: 'pay',
          description: 'Pays an amount.',
          parameters: z.object({ amount: z.number() }),
          needsApproval: () => {
            asked += 1;
            return true;
          },
          execute: ({ amount }) => {
            executed.push(amount);
            return `paid ${amount}`;
          },
        });
        const model = () =>
          new ScriptedModel([], {
            fallback: respond((request: ModelRequest, i: number): Partial<ModelResponse> => {
              if (request.messages.some((m) => m.role === 'tool')) return { text: `done ${i}` };
              return {
                text: '',
                toolCalls: [{ id: `call_${i}`, name: 'pay', arguments: { amount: 10 + i } }],
              };
            }),
          });
        const first = model();
        const agent = (m: ScriptedModel) => new Agent({ name: 'payer', model: m, tools: [pay] });
        const pause = (await rejection(agent(first).run('Pay', { journal, runId }))) as RunPausedError;
        if (!(SwarmError.isInstance(pause) && pause.code === 'RUN_PAUSED'))
          fail(`the run did not pause: ${String(pause)}.`);
        const id = pause.pending[0]!.id;
        const resumedModel = model();
        const result = await agent(resumedModel)
          .run('Pay', { journal, runId, approvals: { [id]: { approved: true, by: 'ana' } } })
          .catch((error: unknown) => fail(`the approved resume failed: ${String(error)}.`));
        if (JSON.stringify(executed) !== '[10]')
          fail(`the approved call ran ${JSON.stringify(executed)}, not once as shown.`);
        if (asked !== 1)
          fail(`needsApproval was asked ${asked} times: a resume must read the decision instead.`);
        const decision = (await journal.read(runId)).find((entry) => entry.type === 'decision');
        if (
          decision?.type !== 'decision' ||
          decision.by !== 'ana' ||
          decision.approved !== true ||
          !decision.at
        ) {
          fail(`the journal holds ${JSON.stringify(decision)}, not the decision with who and when.`);
        }
        const replayModel = model();
        const replay = await agent(replayModel)
          .run('Pay', { journal, runId })
          .catch((error: unknown) => fail(`the replay failed: ${String(error)}.`));
        if (replay.output !== result.output)
          fail(`the replay answered ${JSON.stringify(replay.output)}, not ${JSON.stringify(result.output)}.`);
        if (replayModel.calls.length !== 0)
          fail(`the replay called the model ${replayModel.calls.length} times.`);
        if (executed.length !== 1) fail(`the replay executed the tool again (${JSON.stringify(executed)}).`);
      },
    ),
  );
  return checks;
}

async function acquire(journal: Journal, runId: string): Promise<JournalLease> {
  if (!journal.acquireLease || !journal.releaseLease) {
    fail(
      'the store has no acquireLease/releaseLease: give the suite `unfenced` with the reason if it cannot.',
    );
  }
  return journal.acquireLease(runId);
}

function skipped(name: string, reason: string | undefined, option: string): ConformanceCheck {
  return {
    name,
    run: async () => {
      if (reason === undefined || reason.trim() === '') {
        fail(`give ${option}: the suite cannot check "${name}" otherwise.`);
      }
    },
  };
}
