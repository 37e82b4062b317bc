export { checkGame24, type Game24Check } from './check.js';
export { type ParsedExpression, parseExpression } from './expression.js';
export { type Game24Item, type Game24Move, legalMoves, replaySteps } from './moves.js';
export { type Operator, type Rational, rational } from './rational.js';
export { canReach24 } from './solver.js';
export {
  type Game24EvaluatorOptions,
  game24Answerer,
  game24Evaluator,
  game24Generator,
} from './strategies.js';
export { game24Task, parseGame24Numbers } from './task.js';
