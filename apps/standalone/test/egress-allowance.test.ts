import { egressAllowance } from '../src/demo-simulation';

/** `npm start` allows its own stand-in and nothing else of loopback, plus what the operator's EGRESS_ALLOW names. */
describe('the egress allowance of npm start', () => {
  test('when nothing is configured, then only the stand-in host:port is allowed', () => {
    expect(egressAllowance(undefined, { url: 'http://127.0.0.1:41234' })).toBe('127.0.0.1:41234');
  });

  test("when the operator allows a private simulation system, then it is kept beside the stand-in's host:port", () => {
    expect(egressAllowance(' sim.internal,10.20.0.0/16 ', { url: 'http://127.0.0.1:41234' })).toBe('sim.internal,10.20.0.0/16,127.0.0.1:41234');
  });

  test('when no stand-in runs (SIMULATION_STANDIN_PORT=-1), then only what the operator configured is allowed', () => {
    expect(egressAllowance('', undefined)).toBe('');
    expect(egressAllowance('sim.internal', undefined)).toBe('sim.internal');
  });
});
