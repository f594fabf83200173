import { topicMatches } from '../src';

describe('topicMatches', () => {
  test.each([
    ['car.*.lap', 'car.7.lap', true],
    ['car.*.lap', 'car.lap', false],
    ['car.*.lap', 'car.7.x.lap', false],
    ['session.#', 'session', true],
    ['session.#', 'session.a.b', true],
    ['session.#', 'sessions.a', false],
    ['#', 'anything.at.all', true],
    ['#.lap', 'lap', true],
    ['#.lap', 'car.7.lap', true],
    ['car.#.lap', 'car.lap', true],
    ['lap.completed', 'lap.completed', true],
    ['lap.completed', 'lap.started', false],
  ])('when the binding is %s and the key is %s, then it matches: %s', (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });
});
