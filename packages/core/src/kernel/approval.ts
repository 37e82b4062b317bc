import type { ApprovalDecision, Approvals } from '../contracts/approval.js';
import { ConfigError } from './errors.js';

export type { ApprovalDecision, Approvals, PendingApproval } from '../contracts/approval.js';

/** Checks `RunOptions.approvals`: an object of `{ approved: boolean, message?: string }` by id. */
export function validateApprovals(approvals: unknown): Approvals {
  if (typeof approvals !== 'object' || approvals === null || Array.isArray(approvals)) {
    throw new ConfigError('approvals must be an object of { approved, message? } by approval id.');
  }
  for (const [id, decision] of Object.entries(approvals)) {
    const { approved, message, by, at } = (decision ?? {}) as Partial<ApprovalDecision>;
    if (
      typeof approved !== 'boolean' ||
      (message !== undefined && typeof message !== 'string') ||
      (by !== undefined && typeof by !== 'string') ||
      (at !== undefined && typeof at !== 'string')
    ) {
      throw new ConfigError(
        `approvals[${JSON.stringify(id)}] must be { approved: boolean, message?: string, by?: string, at?: string } (got ${JSON.stringify(decision)}).`,
      );
    }
  }
  return approvals as Approvals;
}
