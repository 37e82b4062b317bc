/** One role of a HeavySwarm: who answers, what their question should cover, and how they work. */
export interface HeavyRole {
  /** The role's name, also the key of its question (`research`). */
  name: string;
  /** What the question for this role should ask about (shown to the question writer). */
  description: string;
  /** The system prompt of the agent that answers as this role. */
  instructions: string;
}

/** A set of roles and the synthesizer who integrates their answers. */
export interface HeavyRoleSet {
  roles: HeavyRole[];
  synthesizer: { name: string; instructions: string };
}

const role = (name: string, description: string, focus: string): HeavyRole => ({
  name,
  description,
  instructions: `You are the ${name} specialist of an analysis team. ${focus} Answer the question you are given thoroughly and concretely, and say what you are unsure of.`,
});

/**
 * The role sets of the original HeavySwarm: `default` (research, analysis, alternatives,
 * verification: by task phase), `grok` (harper, benjamin, lucas: by thinking style, with a captain
 * who mediates) and `grokHeavy` (fifteen domain specialists, with a captain).
 */
export const heavyRoleSets: Record<'default' | 'grok' | 'grokHeavy', HeavyRoleSet> = {
  default: {
    roles: [
      role(
        'research',
        'Comprehensive information gathering: facts, data and sources.',
        'You gather facts, data and sources.',
      ),
      role(
        'analysis',
        'Pattern recognition and analysis of the facts: trends, causes, numbers.',
        'You find patterns, causes and trends.',
      ),
      role(
        'alternatives',
        'Creative problem-solving: other options and strategies.',
        'You propose alternative options and strategies.',
      ),
      role(
        'verification',
        'Validation: feasibility, risks, what could be wrong.',
        'You check feasibility, risks and errors.',
      ),
    ],
    synthesizer: {
      name: 'synthesis',
      instructions:
        'You integrate the answers of research, analysis, alternatives and verification specialists into one comprehensive, well-organized answer, resolving their disagreements.',
    },
  },
  grok: {
    roles: [
      role(
        'harper',
        'Research and facts: evidence, sources, data grounding.',
        'Your thinking is empirical and evidence-based.',
      ),
      role(
        'benjamin',
        'Logic, math and code: rigorous reasoning, numerical checks, stress tests.',
        'Your thinking is rigorous and analytical.',
      ),
      role(
        'lucas',
        'Creative and contrarian analysis: blind spots, biases, unconventional options.',
        'Your thinking is divergent and lateral; challenge assumptions.',
      ),
    ],
    synthesizer: {
      name: 'captain',
      instructions:
        'You are the captain of a team of three: Harper (evidence), Benjamin (logic and math) and Lucas (contrarian). Mediate their conflicts and synthesize one answer.',
    },
  },
  grokHeavy: {
    roles: [
      role(
        'harper',
        'Creative writing: storytelling, narrative framing, communication.',
        'Your domain is creative writing.',
      ),
      role(
        'benjamin',
        'Finance: data, financial modeling, economics.',
        'Your domain is finance and economics.',
      ),
      role(
        'lucas',
        'Technology: coding, software architecture, technical builds.',
        'Your domain is technology.',
      ),
      role(
        'olivia',
        'Culture: literature, arts, humanistic perspectives.',
        'Your domain is culture and the arts.',
      ),
      role(
        'james',
        'History: historical, political and philosophical analysis.',
        'Your domain is history, politics and philosophy.',
      ),
      role('charlotte', 'Mathematics: statistics, formal logic, proofs.', 'Your domain is mathematics.'),
      role('henry', 'Engineering: robotics, hardware, systems engineering.', 'Your domain is engineering.'),
      role(
        'mia',
        'Medicine: biology, health sciences, public health.',
        'Your domain is medicine and biology.',
      ),
      role('william', 'Business: strategy, entrepreneurship, markets.', 'Your domain is business.'),
      role('sebastian', 'Physics: astronomy and the hard sciences.', 'Your domain is physics.'),
      role('jack', 'Psychology: human behavior, cognition, decisions.', 'Your domain is psychology.'),
      role(
        'owen',
        'Environment: sustainability, climate, global systems.',
        'Your domain is the environment.',
      ),
      role(
        'luna',
        'Space: exploration, futurism, emerging frontiers.',
        'Your domain is space and the future.',
      ),
      role(
        'elizabeth',
        'Ethics: policy, ethical frameworks, critical thinking.',
        'Your domain is ethics and policy.',
      ),
      role(
        'noah',
        'Systems: long-term innovation, systems thinking, civilizational impact.',
        'Your domain is systems thinking.',
      ),
    ],
    synthesizer: {
      name: 'grok',
      instructions:
        'You are the captain of fifteen domain specialists. Synthesize their answers into one, noting where domains converge and where they conflict.',
    },
  },
};
