import { z } from 'zod';

/** One generated step as the model writes it: the step, and whether it completes the task. */
export const stepSchema = z.object({
  thought: z.string().min(1).describe('The next step, self-contained.'),
  isFinal: z.boolean().describe('True only if this step completes the task.'),
});
