import { AppError, fromSerialized, serializeAppError, toAppError, toProblem } from '../src';

describe('AppError', () => {
  test('when an unknown error is converted, then it becomes a catastrophic 500 whose detail hides the internals', () => {
    const err = toAppError(new Error('password=secret'));
    expect(err.status).toBe(500);
    expect(err.catastrophic).toBe(true);
    expect(toProblem(err, '/x', 't').detail).toBe('An unexpected error occurred');
  });

  test('when serialized and restored, then status, title, detail and field errors survive', () => {
    const original = AppError.badRequest('bad', { 'ParameterUpdates[0].Value': ['not a number'] });
    const restored = fromSerialized(JSON.parse(JSON.stringify(serializeAppError(original))));
    expect(restored).toBeInstanceOf(AppError);
    expect(restored).toMatchObject({ status: 400, title: 'Bad Request', message: 'bad', errors: original.errors });
  });
});
