import { applyV8Flags } from '../../src/v8-flags';

describe('the V8 settings an app applies at start', () => {
  // The real call would change this jest worker's own V8 flags; what is tested is which flag an app asks for.
  let setFlags: jest.SpyInstance;
  beforeEach(() => {
    // The module object itself (an import namespace's properties cannot be redefined).
    setFlags = jest.spyOn(jest.requireActual<typeof import('node:v8')>('node:v8'), 'setFlagsFromString').mockImplementation(() => undefined);
  });
  afterEach(() => setFlags.mockRestore());

  test('when nothing is configured, then allocation-site pretenuring is turned off', () => {
    applyV8Flags({});
    expect(setFlags.mock.calls).toEqual([['--no-allocation-site-pretenuring']]);
  });

  test('when V8_PRETENURING=1, then V8 keeps its default', () => {
    applyV8Flags({ V8_PRETENURING: '1' });
    expect(setFlags).not.toHaveBeenCalled();
  });

  test('when V8_PRETENURING is anything but 1, then pretenuring is still turned off', () => {
    applyV8Flags({ V8_PRETENURING: 'true' });
    expect(setFlags.mock.calls).toEqual([['--no-allocation-site-pretenuring']]);
  });
});
