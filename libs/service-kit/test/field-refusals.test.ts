import { AppError, FieldRefusals, MAX_DETAIL_SENTENCES } from '../src';

describe('FieldRefusals', () => {
  const thrown = (refusals: FieldRefusals): AppError => {
    try {
      refusals.throwIfAny();
    } catch (err) {
      return err as AppError;
    }
    throw new Error('nothing was thrown');
  };

  test('when nothing was refused, then nothing is thrown', () => {
    expect(() => new FieldRefusals().throwIfAny()).not.toThrow();
  });

  test("when faults are refused and checks' 400s taken, then one 400 names every field and its detail joins every sentence in order", () => {
    const refusals = new FieldRefusals();
    refusals.refuse('carId', 'the car is not entered in the event', 'Car c is not entered in event e');
    refusals.take(AppError.badRequest('The request body is not valid', { 'properties[0].value': ["LapTime is a Double; 'x' is not a number"] }), 'reasons');
    refusals.take(AppError.badRequest("start 'x' is not a number of seconds", { start: ['is not a number of seconds'] }), 'detail');
    refusals.refuse('carId', 'a second reason');
    const error = thrown(refusals);
    expect(error).toMatchObject({ status: 400, errors: { carId: ['the car is not entered in the event', 'a second reason'], 'properties[0].value': [expect.any(String)], start: ['is not a number of seconds'] } });
    expect(error.message).toBe("Car c is not entered in event e; LapTime is a Double; 'x' is not a number; start 'x' is not a number of seconds; a second reason");
  });

  test('when more sentences are refused than a detail spells out, then the detail gives the first and counts the rest, and errors name every field', () => {
    const refusals = new FieldRefusals();
    for (let i = 0; i < 1000; i++) refusals.refuse(`properties[${i}].name`, `no parameter named 'p${i}'`);
    const error = thrown(refusals);
    const first = Array.from({ length: MAX_DETAIL_SENTENCES }, (_, i) => `no parameter named 'p${i}'`);
    expect(error.message).toBe(`${first.join('; ')}; and ${1000 - MAX_DETAIL_SENTENCES} more, each in errors`);
    expect(Object.keys(error.errors ?? {})).toHaveLength(1000);
    // As many as it spells out: all of them, nothing counted.
    const few = new FieldRefusals();
    for (let i = 0; i < MAX_DETAIL_SENTENCES; i++) few.refuse(`f${i}`, `r${i}`);
    expect(thrown(few).message).toBe(Array.from({ length: MAX_DETAIL_SENTENCES }, (_, i) => `r${i}`).join('; '));
  });

  test('when a check fails with anything but a 400 naming fields, then it is thrown on', () => {
    const refusals = new FieldRefusals();
    const unavailable = AppError.unavailable('down');
    expect(() => refusals.take(unavailable, 'detail')).toThrow(unavailable);
    expect(() => refusals.take(AppError.badRequest('no fields'), 'detail')).toThrow('no fields');
    expect(() => refusals.throwIfAny()).not.toThrow();
  });
});
