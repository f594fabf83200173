import { LatestDraw } from '../../src/latest';

/** Answers that come back in any order: only the draw started last shows its answer; one dropped fails silently. */
describe('LatestDraw', () => {
  /** A draw whose answer comes when `answer` is called: it records what it drew, or rejects with `fail`. */
  function pending(draws: LatestDraw, drawn: string[], name: string, fail = false): { answer: () => void; done: Promise<void> } {
    let answer: () => void = () => undefined;
    const read = new Promise<void>((resolve) => (answer = resolve));
    const done = draws.draw(async (current) => {
      await read;
      if (fail) throw new Error(`${name} failed`);
      if (current()) drawn.push(name);
    });
    return { answer, done };
  }

  it('when an earlier draw\'s answer comes after a later one\'s, then only the later one draws', async () => {
    const draws = new LatestDraw();
    const drawn: string[] = [];
    const first = pending(draws, drawn, 'first');
    const second = pending(draws, drawn, 'second');
    second.answer();
    await second.done;
    first.answer();
    await first.done;
    expect(drawn).toEqual(['second']);
  });

  it('when a draw is the latest, then its answer draws, whichever came before it', async () => {
    const draws = new LatestDraw();
    const drawn: string[] = [];
    const first = pending(draws, drawn, 'first');
    first.answer();
    await first.done;
    const second = pending(draws, drawn, 'second');
    second.answer();
    await second.done;
    expect(drawn).toEqual(['first', 'second']);
  });

  it('when the plot is cleared while a draw is under way, then that draw draws nothing', async () => {
    const draws = new LatestDraw();
    const drawn: string[] = [];
    const first = pending(draws, drawn, 'first');
    draws.drop();
    first.answer();
    await first.done;
    expect(drawn).toEqual([]);
  });

  it('when a dropped draw fails, then it fails silently; the latest draw\'s failure is thrown', async () => {
    const draws = new LatestDraw();
    const drawn: string[] = [];
    const first = pending(draws, drawn, 'first', true);
    const second = pending(draws, drawn, 'second', true);
    first.answer();
    await expect(first.done).resolves.toBeUndefined();
    second.answer();
    await expect(second.done).rejects.toThrow('second failed');
  });
});
