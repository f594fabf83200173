import { compile, ExpressionError } from '../src';

/** The ExpressionError `run` throws (any other error is thrown on; no error at all fails the test). */
export function errorOf(run: () => unknown): ExpressionError {
  try {
    run();
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error('no error');
}

/** A math-channel expression compiled as the service compiles a definition's. */
export const math = (text: string, inputs: readonly string[] | 'any' = 'any') => compile(text, { inputs, math: true });
