import { ownParamNames, ParamNamesBuilder, paramNamesOf } from '../src';

describe('the parameters definitions read through one another, bounded', () => {
  test('when definitions read one another, then each has its own and those of the ones it reads, each name once; one reading one other and none of its own shares its set', () => {
    const graph = new Map([
      ['a', ['Speed']],
      ['b', ['a']],
      ['c', ['b', 'a']],
    ]);
    const own: Record<string, string[]> = { a: ['X', 'Y'], b: [], c: ['Y', 'Z'] };
    const names = paramNamesOf(graph, (name) => own[name] ?? [], 10, ['c']);
    expect([...(names.get('c') ?? [])]).toEqual(['Y', 'Z', 'X']);
    expect(names.get('b')).toBe(names.get('a'));
  });

  test('when a chain gathers more than the bound, then each past it is null and no set holds more than the bound', () => {
    const n = 1000;
    const graph = new Map(Array.from({ length: n }, (_, i) => [`d${i}`, i ? [`d${i - 1}`] : []]));
    const names = paramNamesOf(graph, (name) => Array.from({ length: 100 }, (_, j) => `${name}_${j}`), 1024, [`d${n - 1}`]);
    expect([...names.values()].filter((set) => set !== null).map((set) => set?.size)).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(names.get(`d${n - 1}`)).toBeNull();
    // Own names alone past the bound, and a merge into one already past it.
    expect(ownParamNames(['A', 'B', 'C'], 2)).toBeNull();
    const past = new ParamNamesBuilder(null, 2);
    past.add(new Set(['A']));
    expect(past.result).toBeNull();
  });
});
