import { definitionReaches, mathReadsOf, NO_REACH, parse, expressionReach, type Reach } from '../src';

const reachOf = (text: string) => expressionReach(parse(text, { quotedNames: true }));
const margin = (seconds: number, samples: number) => ({ seconds, samples });
const reach = (start: boolean, before: [number, number], after: [number, number]): Reach => ({ start, before: margin(...before), after: margin(...after) });

describe('the reach of a math channel: what its value at a time reads beyond that time', () => {
  test('when an expression has no time function, then it reads nothing beyond its time', () => {
    expect(reachOf('"Ground Speed" / 3.6 + abs(Steer) * lapTime()')).toEqual({ own: NO_REACH, through: new Map([['Ground Speed', NO_REACH], ['Steer', NO_REACH]]) });
  });

  test('when each time function is read, then derivative reads a sample each side, smooth half its width and a sample, integral and lowpass every sample from the first', () => {
    expect(reachOf('derivative(x)').own).toEqual(reach(false, [0, 1], [0, 1]));
    expect(reachOf('smooth(x, 0.5)').own).toEqual(reach(false, [0.25, 1], [0.25, 1]));
    expect(reachOf('integral(x)').own).toEqual(reach(true, [0, 0], [0, 0]));
    expect(reachOf('lowpass(x, 10)').own).toEqual(reach(true, [0, 0], [0, 0]));
  });

  test('when time functions nest, then their margins add up; side by side, the wider of each is taken', () => {
    expect(reachOf('derivative(smooth(derivative(x), 2))').own).toEqual(reach(false, [1, 3], [1, 3]));
    expect(reachOf('integral(derivative(x))').own).toEqual(reach(true, [0, 1], [0, 1]));
    expect(reachOf('smooth(x, 1) + derivative(y) * 2').own).toEqual(reach(false, [0.5, 1], [0.5, 1]));
    const parts = reachOf('smooth(x, 1) + derivative(y) + x');
    expect(parts.through.get('x')).toEqual(reach(false, [0.5, 1], [0.5, 1]));
    expect(parts.through.get('y')).toEqual(reach(false, [0, 1], [0, 1]));
    // A bare constant is no name; a quoted one is.
    expect([...reachOf('derivative(pi * x) + "e"').through.keys()]).toEqual(['e', 'x']);
  });

  test('when definitions read one another, then each one\'s reach goes through those it reads', () => {
    const defs = [
      { name: 'Speed ms', expression: '"Ground Speed" / 3.6' },
      { name: 'Smooth', expression: 'smooth("Speed ms", 1)' },
      { name: 'Accel', expression: 'derivative(Smooth)' },
      { name: 'Distance', expression: 'integral("Speed ms")' },
      { name: 'Both', expression: 'derivative(Distance) + Accel' },
    ];
    const reaches = definitionReaches(defs.map((d) => ({ name: d.name, reach: mathReadsOf(d.expression).reach })));
    expect(reaches.get('Speed ms')).toEqual(NO_REACH);
    expect(reaches.get('Smooth')).toEqual(reach(false, [0.5, 1], [0.5, 1]));
    expect(reaches.get('Accel')).toEqual(reach(false, [0.5, 2], [0.5, 2]));
    expect(reaches.get('Distance')).toEqual(reach(true, [0, 0], [0, 0]));
    expect(reaches.get('Both')).toEqual(reach(true, [0.5, 2], [0.5, 2]));
  });
});

describe('the reach of delay', () => {
  it('when a channel delays another by some seconds, then its value reads that far back and one sample more, nothing ahead', () => {
    const { own } = expressionReach(parse('delay(x, 2.5) + smooth(delay(y, 1), 4)'));
    expect(own).toEqual({ start: false, before: { seconds: 3, samples: 2 }, after: { seconds: 2, samples: 1 } });
  });
});
