/**
 * Scripted role answers for running the example without a model: each role is a ScriptedModel
 * from `@swarm/core/testing` that answers by the thought it is shown, as a real team might.
 */
import type { ModelRequest } from '@swarm/core';
import { messageText } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import type { CoordinatedModels } from '@swarm/tot';

const nextThoughts: Record<string, string[]> = {
  '': [
    'Cut building energy use: retrofits and heat pumps',
    'Shift local transport away from private cars',
    'Plant a forest to offset every emission',
  ],
  'Cut building energy use: retrofits and heat pumps': [
    'A town-backed loan scheme for insulation, repaid through energy bills',
    'Replace gas boilers in public buildings first, as a visible pilot',
    'Require heat pumps in every new building',
  ],
  'Shift local transport away from private cars': [
    'A frequent electric bus loop linking the centre, station and schools',
    'Safe, separated cycle lanes on the five busiest roads',
  ],
};

// Scores and termination per thought: the Analyzer's and the Critic's views differ a little.
const verdicts: Record<string, { analyzer: number; critic: number; stop?: boolean; why: string }> = {
  'Cut building energy use: retrofits and heat pumps': {
    analyzer: 9,
    critic: 8,
    why: 'Buildings are the largest share (41%).',
  },
  'Shift local transport away from private cars': {
    analyzer: 8,
    critic: 7,
    why: 'Transport is 33%, mostly short car trips.',
  },
  'Plant a forest to offset every emission': {
    analyzer: 4,
    critic: 2,
    stop: true,
    why: 'Offsets need far more land than the town has and do not cut emissions.',
  },
  'A town-backed loan scheme for insulation, repaid through energy bills': {
    analyzer: 9,
    critic: 8,
    stop: true,
    why: 'A concrete, financed measure: ready to recommend.',
  },
  'Replace gas boilers in public buildings first, as a visible pilot': {
    analyzer: 7,
    critic: 7,
    stop: true,
    why: 'Small share alone, but builds trust and skills.',
  },
  'Require heat pumps in every new building': {
    analyzer: 6,
    critic: 4,
    stop: true,
    why: 'Few new buildings: slow effect.',
  },
  'A frequent electric bus loop linking the centre, station and schools': {
    analyzer: 8,
    critic: 6,
    stop: true,
    why: 'Works if every 15 minutes or better.',
  },
  'Safe, separated cycle lanes on the five busiest roads': {
    analyzer: 8,
    critic: 8,
    stop: true,
    why: 'Most trips are under 5 km.',
  },
};

function lastThought(request: ModelRequest): string {
  const path = /PATH SO FAR:\n([\s\S]*?)(?:\n\n|$)/.exec(
    messageText(request.messages[0] ?? { content: '' }),
  )?.[1];
  return (
    path
      ?.split('\n')
      .at(-1)
      ?.replace(/^\d+\. /, '') ?? ''
  );
}

function forced(request: ModelRequest): string | undefined {
  return typeof request.toolChoice === 'object' ? request.toolChoice.name : undefined;
}

/** One scripted model per role; the researcher calls the `town_data` tool, then reports. */
export function offlineTeam(): CoordinatedModels {
  const planner = new ScriptedModel([], {
    id: 'offline-planner',
    fallback: respond((request) => ({
      toolCalls: [
        { name: forced(request)!, arguments: { thoughts: nextThoughts[lastThought(request)] ?? [] } },
      ],
    })),
  });
  const judge = (role: 'analyzer' | 'critic') =>
    new ScriptedModel([], {
      id: `offline-${role}`,
      fallback: respond((request) => {
        const v = verdicts[lastThought(request)] ?? { analyzer: 5, critic: 5, why: 'No view.' };
        return {
          toolCalls: [
            {
              name: forced(request)!,
              arguments: { score: v[role], terminate: v.stop ?? false, reasons: [v.why] },
            },
          ],
        };
      }),
    });
  const researcher = new ScriptedModel([], {
    id: 'offline-researcher',
    fallback: respond((request) => {
      const lastTurn = request.messages.at(-1);
      if (lastTurn?.role === 'tool') return `Town data: ${lastTurn.content}`;
      return { toolCalls: [{ name: 'town_data', arguments: { topic: lastThought(request) } }] };
    }),
  });
  const synthesizer = new ScriptedModel([], {
    id: 'offline-synthesizer',
    fallback: respond(
      () =>
        'Halve emissions in ten years with two programmes. (1) Buildings (41% of emissions): a town-backed insulation and heat-pump loan scheme repaid through energy bills, started with public buildings as a visible pilot. (2) Transport (33%): a 15-minute electric bus loop between the centre, the station and the schools, and separated cycle lanes on the five busiest roads, since most trips are under 5 km. Offsetting with a forest was dropped: the town has too little land and offsets cut nothing.',
    ),
  });
  return { planner: planner, researcher, analyzer: judge('analyzer'), critic: judge('critic'), synthesizer };
}
