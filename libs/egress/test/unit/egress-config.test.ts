import { loadConfig } from '@pitwall/service-kit';
import { EgressConfig, egressSettings } from '../../src';

describe('EgressConfig', () => {
  test('when nothing is set, then nothing outside public unicast is allowed, 64 KiB are read, 5 s to connect and 30 s in all', () => {
    expect(egressSettings(loadConfig(EgressConfig, {}))).toEqual({ allow: '', maxResponseBytes: 65536, connectTimeoutMs: 5000, timeoutMs: 30000 });
  });

  test('when EGRESS_ALLOW holds a bad entry, then start-up stops with a message naming the variable and the entry', () => {
    expect(() => loadConfig(EgressConfig, { EGRESS_ALLOW: 'sim.internal,http://10.0.0.1' })).toThrow('EGRESS_ALLOW: "http://10.0.0.1" is not a CIDR range');
  });

  test.each(['EGRESS_CONNECT_TIMEOUT_MS', 'EGRESS_TIMEOUT_MS'])('when %s is past the longest a timer keeps, then start-up stops naming it (the call would time out at once)', (name) => {
    expect(() => loadConfig(EgressConfig, { [name]: '3000000000' })).toThrow(`Invalid configuration:\n  ${name}: must be a whole number of milliseconds from 1 to 2147483647`);
  });

  test('when the limits are set, then they are used', () => {
    expect(egressSettings(loadConfig(EgressConfig, { EGRESS_ALLOW: '10.0.0.0/8', EGRESS_MAX_RESPONSE_BYTES: '1024', EGRESS_CONNECT_TIMEOUT_MS: '100', EGRESS_TIMEOUT_MS: '2000' }))).toEqual({ allow: '10.0.0.0/8', maxResponseBytes: 1024, connectTimeoutMs: 100, timeoutMs: 2000 });
  });
});
