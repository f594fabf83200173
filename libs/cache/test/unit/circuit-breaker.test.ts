import { CircuitBreaker, CircuitOpenError, type BreakerState } from '../../src/circuit-breaker';

/** A dependency the test switches up and down; the breaker's probe asks it. */
function dependency() {
  const d = {
    up: false,
    probes: 0,
    call: async () => {
      if (!d.up) throw new Error('unreachable');
      return 'answer';
    },
    probe: async () => {
      d.probes++;
      if (!d.up) throw new Error('still unreachable');
    },
  };
  return d;
}

describe('CircuitBreaker', () => {
  let changes: BreakerState[];
  let dep: ReturnType<typeof dependency>;
  let breaker: CircuitBreaker;

  beforeEach(() => {
    jest.useFakeTimers();
    changes = [];
    dep = dependency();
    breaker = new CircuitBreaker('thing', { failureThreshold: 3, probeIntervalMs: 1000, probe: () => dep.probe(), onChange: (s) => changes.push(s) });
  });
  afterEach(() => {
    breaker.stop();
    jest.useRealTimers();
  });

  const fail = async (n: number) => {
    for (let i = 0; i < n; i++) await expect(breaker.run(dep.call)).rejects.toThrow('unreachable');
  };

  test('when calls succeed, then it stays closed and passes their answers through', async () => {
    dep.up = true;
    await expect(breaker.run(dep.call)).resolves.toBe('answer');
    expect(breaker.state).toBe('closed');
  });

  test('when fewer failures in a row than the threshold come, or a success breaks the row, then it stays closed', async () => {
    await fail(2);
    dep.up = true;
    await breaker.run(dep.call);
    dep.up = false;
    await fail(2);
    expect(breaker.state).toBe('closed');
    expect(changes).toEqual([]);
  });

  test('when failures that do not count come (the dependency answered with an error), then it stays closed', async () => {
    for (let i = 0; i < 5; i++) await expect(breaker.run(dep.call, () => false)).rejects.toThrow('unreachable');
    expect(breaker.state).toBe('closed');
  });

  test('when the threshold of failures in a row is reached, then it opens and refuses calls at once without making them', async () => {
    await fail(3);
    expect(breaker.state).toBe('open');
    const call = jest.fn(dep.call);
    await expect(breaker.run(call)).rejects.toBeInstanceOf(CircuitOpenError);
    expect(call).not.toHaveBeenCalled();
  });

  test('when open, then it probes every interval by itself, stays open while the probe fails, and closes on the first probe that succeeds', async () => {
    await fail(3);
    await jest.advanceTimersByTimeAsync(999);
    expect(dep.probes).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(dep.probes).toBe(1);
    expect(breaker.state).toBe('open');
    await jest.advanceTimersByTimeAsync(1000);
    expect(dep.probes).toBe(2);
    dep.up = true;
    await jest.advanceTimersByTimeAsync(1000);
    expect(dep.probes).toBe(3);
    expect(breaker.state).toBe('closed');
    expect(changes).toEqual(['open', 'probing', 'open', 'probing', 'open', 'probing', 'closed']);
    await expect(breaker.run(dep.call)).resolves.toBe('answer');
    // Closed again: no more probes.
    await jest.advanceTimersByTimeAsync(5000);
    expect(dep.probes).toBe(3);
  });

  test('when a probe is in flight, then calls are still refused at once', async () => {
    let answer!: () => void;
    breaker = new CircuitBreaker('thing', { failureThreshold: 1, probeIntervalMs: 1000, probe: () => new Promise<void>((resolve) => (answer = resolve)) });
    await fail(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(breaker.state).toBe('probing');
    await expect(breaker.run(async () => 'x')).rejects.toBeInstanceOf(CircuitOpenError);
    answer();
    await jest.advanceTimersByTimeAsync(0);
    expect(breaker.state).toBe('closed');
  });

  test('when tripped (a lost connection), then it opens at once, whatever the count', async () => {
    breaker.trip(new Error('connection lost'));
    expect(breaker.state).toBe('open');
    await expect(breaker.run(dep.call)).rejects.toBeInstanceOf(CircuitOpenError);
  });

  test('when told the dependency may be back, then it probes at once rather than at the next interval', async () => {
    breaker.trip();
    dep.up = true;
    breaker.probeSoon();
    await jest.advanceTimersByTimeAsync(0);
    expect(dep.probes).toBe(1);
    expect(breaker.state).toBe('closed');
  });

  test('when tripped again while a probe is in flight, then that probe\'s success does not close it', async () => {
    let answer!: () => void;
    breaker = new CircuitBreaker('thing', { failureThreshold: 1, probeIntervalMs: 1000, probe: () => new Promise<void>((resolve) => (answer = resolve)) });
    breaker.trip();
    await jest.advanceTimersByTimeAsync(1000);
    expect(breaker.state).toBe('probing');
    breaker.trip(new Error('lost again'));
    answer();
    await jest.advanceTimersByTimeAsync(0);
    expect(breaker.state).toBe('open');
  });

  test('when a call sent before it opened succeeds after, then it stays open until a probe succeeds', async () => {
    let answer!: (v: string) => void;
    const slow = breaker.run(() => new Promise<string>((resolve) => (answer = resolve)));
    breaker.trip();
    answer('late');
    await expect(slow).resolves.toBe('late');
    expect(breaker.state).toBe('open');
  });

  test('when stopped, then it probes no more', async () => {
    breaker.trip();
    breaker.stop();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(dep.probes).toBe(0);
  });
});
