/**
 * A session save that would lose a turn and could not be merged: the writer changed turns it had
 * read, or other writers kept winning the race. Run the message again on the fresh session.
 * (`code` matches the `SESSION_CONFLICT` of `@swarm/core`'s coming `SessionConflictError`.)
 */
export class SessionConflictError extends Error {
  readonly code = 'SESSION_CONFLICT';
  readonly sessionId: string;

  constructor(sessionId: string, message: string) {
    super(message);
    this.name = 'SessionConflictError';
    this.sessionId = sessionId;
  }
}
