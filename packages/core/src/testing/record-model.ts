import type { Model, ModelRequest, ModelResponse, ModelStreamEvent } from '../contracts/model.js';
import { ConfigError, type ModelError, SwarmError } from '../kernel/errors.js';
import { nodeBuiltin } from '../kernel/node-builtin.js';
import {
  type CassetteEntry,
  type CassetteError,
  cassetteRequest,
  cassetteResponse,
  cassettesInNode,
} from './cassette.js';

/** Options of `recordModel`. */
export interface RecordModelOptions {
  /** The JSONL cassette: one line per call is appended (delete the file to record afresh). */
  file: string;
}

/**
 * Wraps any Model so that each call's request and response (or failure) is appended to a JSONL
 * cassette as it finishes, for `replayModel` to answer the same requests offline. Only the fields
 * a model answers from are written: never a signal, header or key. Aborted calls are not written.
 * Cassettes are files: Node.js only.
 */
export function recordModel(model: Model, options: RecordModelOptions): Model {
  if (!model || typeof model.generate !== 'function') throw new ConfigError('recordModel: give a Model.');
  if (typeof options?.file !== 'string' || options.file === '') {
    throw new ConfigError('recordModel: file must be the path of the cassette to append to.');
  }
  const { file } = options;
  const { appendFileSync } = nodeBuiltin<typeof import('node:fs')>(
    'node:fs',
    'recordModel()',
    cassettesInNode,
  );
  const write = (entry: CassetteEntry) => appendFileSync(file, `${JSON.stringify(entry)}\n`);
  const answered = (request: ModelRequest, response: ModelResponse) =>
    write({ model: model.id, request: cassetteRequest(request), response: cassetteResponse(response) });
  const failed = (request: ModelRequest, error: unknown) => {
    if (request.signal?.aborted || (SwarmError.isInstance(error) && error.code === 'ABORTED')) return;
    write({ model: model.id, request: cassetteRequest(request), error: cassetteError(error) });
  };

  const recorder: Model = {
    id: model.id,
    async generate(request) {
      try {
        const response = await model.generate(request);
        answered(request, response);
        return response;
      } catch (error) {
        failed(request, error);
        throw error;
      }
    },
  };
  const stream = model.stream?.bind(model);
  if (stream) {
    recorder.stream = async function* (request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      try {
        for await (const part of stream(request)) {
          if (part.type === 'finish') answered(request, part.response);
          yield part;
        }
      } catch (error) {
        failed(request, error);
        throw error;
      }
    };
  }
  return recorder;
}

function cassetteError(error: unknown): CassetteError {
  const message = error instanceof Error ? error.message : String(error);
  if (SwarmError.isInstance(error) && error.code === 'MODEL') {
    const { status, retryable } = error as ModelError;
    return {
      message,
      ...(status !== undefined && { status }),
      retryable,
    };
  }
  return { message };
}
