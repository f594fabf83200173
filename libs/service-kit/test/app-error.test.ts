import { AppError, fromSerialized, isConnectionLost, serializeAppError, toAppError, toProblem } from '../src';

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

  test('when a 503 says when to retry, then Retry-After survives serialization', () => {
    const restored = fromSerialized(JSON.parse(JSON.stringify(serializeAppError(AppError.busy('busy', 2)))));
    expect(restored).toMatchObject({ status: 503, message: 'busy', retryAfterSeconds: 2 });
  });

  test('when the database cannot take a statement now, then it is a 503 with a Retry-After, not a 500', () => {
    const refused = Object.assign(new Error('the embedded database is busy'), { code: '57P03' });
    const full = Object.assign(new Error('sorry, too many clients already'), { code: '53300' });
    const locks = Object.assign(new Error('out of shared memory'), { code: '53200' });
    for (const err of [refused, full, locks, new Error('timeout exceeded when trying to connect')]) {
      const appError = toAppError(err);
      expect(appError).toMatchObject({ status: 503, catastrophic: false, retryAfterSeconds: 1 });
      expect(toProblem(appError, '/x', 't').detail).toBe('The database is busy with other work; retry shortly');
    }
    expect(toAppError(Object.assign(new Error('syntax error'), { code: '42601' })).status).toBe(500);
  });

  test('when PostgreSQL cannot index a value this long, then it is a 400 saying so, not a 500', () => {
    const err = Object.assign(new Error('index row size 4048 exceeds btree version 4 maximum 2704 for index "entities_assoc_event"'), { code: '54000' });
    expect(toAppError(err)).toMatchObject({ status: 400, catastrophic: false });
    expect(toAppError(err).message).toMatch(/^A value of this request is too long for the database to index/);
  });

  test('when PostgreSQL rolled the transaction back for a deadlock or a serialization failure, then it is a 503 to retry, not a 500', () => {
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const serialization = Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
    for (const err of [deadlock, serialization]) {
      const appError = toAppError(err);
      expect(appError).toMatchObject({ status: 503, catastrophic: false, retryAfterSeconds: 1 });
      expect(toProblem(appError, '/x', 't').detail).toBe('The request met a concurrent change of the same data and was rolled back; nothing was changed, retry it');
    }
    // Another class 40 code (a transaction integrity constraint) is not one a retry settles.
    expect(toAppError(Object.assign(new Error('integrity constraint violation'), { code: '40002' })).status).toBe(500);
  });

  test('when the database connection was lost under the statement, then it is a 503 with a Retry-After, not a 500', () => {
    const lost = [
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated'),
      new Error('Client has encountered a connection error and is not queryable'),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('terminating connection because of crash of another server process'), { code: '57P02' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ];
    for (const err of lost) {
      expect(isConnectionLost(err)).toBe(true);
      expect(toAppError(err)).toMatchObject({ status: 503, catastrophic: false, retryAfterSeconds: 1 });
    }
    expect(isConnectionLost(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });

  test('when the loss is in the words of the database, then the problem names the database; when it is a bare socket error, then it names no source', () => {
    expect(toAppError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })).message).toMatch(/connection to the database was lost/);
    expect(toAppError(new Error('Connection terminated unexpectedly')).message).toMatch(/connection to the database was lost/);
    // A socket error may come from any client (an S3 call, a webhook): it is not said to be the database's.
    const socket = toAppError(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:9000'), { code: 'ECONNREFUSED' }));
    expect(socket).toMatchObject({ status: 503, retryAfterSeconds: 1 });
    expect(socket.message).toBe('A connection the request needed was lost; the request was not completed, retry it');
  });
});
