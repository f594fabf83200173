import { AddressPolicy, AllowListError, parseAllowList, refusedRange } from '../../src';

describe('refusedRange', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    // Azure's host endpoint (WireServer, guest agent) is a public unicast address, refused all the same.
    ['168.63.129.16', 'cloudHostEndpoint'],
    ['::ffff:168.63.129.16', 'cloudHostEndpoint'],
    ['fe80::1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['fd12:3456::1', 'uniqueLocal'],
    // IPv4-compatible (::/96, deprecated): never public, whatever IPv4 address they carry.
    ['::127.0.0.1', 'ipv4Compatible'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::a9fe:a9fe', 'ipv4Compatible'],
    ['::8.8.8.8', 'ipv4Compatible'],
  ])('when the address is %s, then it is refused as %s', (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });

  test.each([['93.184.215.14'], ['8.8.8.8'], ['2606:4700:4700::1111'], ['::ffff:8.8.8.8']])('when the address is the public %s, then it is not refused', (address) => {
    expect(refusedRange(address)).toBeNull();
  });
});

describe('AddressPolicy', () => {
  test('when EGRESS_ALLOW names the cloud host endpoint, then it may be reached; otherwise it is refused naming it', () => {
    expect(new AddressPolicy('').refusal('168.63.129.16', 80, '168.63.129.16')).toBe('168.63.129.16 (cloudHostEndpoint)');
    expect(new AddressPolicy('168.63.129.16').refusal('168.63.129.16', 80, '168.63.129.16')).toBeNull();
  });

  test('when EGRESS_ALLOW is empty, then loopback and private addresses are refused naming the address and its range, public ones pass', () => {
    const policy = new AddressPolicy('');
    expect(policy.refusal('localhost', 80, '127.0.0.1')).toBe('127.0.0.1 (loopback)');
    expect(policy.refusal('sim.internal', 443, '10.0.0.5')).toBe('10.0.0.5 (private)');
    expect(policy.refusal('sim.example', 443, '93.184.215.14')).toBeNull();
  });

  test('when EGRESS_ALLOW names a host, then that host passes at any of its addresses and another host at the same address does not', () => {
    const policy = new AddressPolicy('sim.internal');
    expect(policy.refusal('sim.internal', 443, '10.0.0.5')).toBeNull();
    expect(policy.refusal('SIM.internal.', 443, '127.0.0.1')).toBeNull();
    expect(policy.refusal('other.internal', 443, '10.0.0.5')).toBe('10.0.0.5 (private)');
  });

  test('when EGRESS_ALLOW names a CIDR range, then its addresses pass, in IPv4-mapped form too, and others do not', () => {
    const policy = new AddressPolicy('10.20.0.0/16, fd00:1::/32');
    expect(policy.refusal('a', 80, '10.20.3.4')).toBeNull();
    expect(policy.refusal('a', 80, '::ffff:10.20.3.4')).toBeNull();
    expect(policy.refusal('a', 80, 'fd00:1::9')).toBeNull();
    expect(policy.refusal('a', 80, '10.21.0.1')).toBe('10.21.0.1 (private)');
    expect(policy.refusal('a', 80, 'fd00:2::9')).toBe('fd00:2::9 (uniqueLocal)');
  });

  test('when EGRESS_ALLOW names a range in the IPv4-compatible dotted form, then it is that IPv6 range, not the IPv4 one (::10.0.0.0/104 is not 10.0.0.0/8)', () => {
    const policy = new AddressPolicy('::10.0.0.0/104, ::ffff:10.30.0.0/112');
    expect(policy.refusal('a', 80, '10.1.2.3')).toBe('10.1.2.3 (private)');
    expect(policy.refusal('a', 80, '::a01:203')).toBeNull();
    expect(policy.refusal('a', 80, '10.30.0.7')).toBeNull();
  });

  test('when an entry carries a port, then only that port passes', () => {
    const policy = new AddressPolicy('127.0.0.1:8090,[::1]:8091,standin.local:8092');
    expect(policy.refusal('127.0.0.1', 8090, '127.0.0.1')).toBeNull();
    expect(policy.refusal('127.0.0.1', 8091, '127.0.0.1')).toBe('127.0.0.1 (loopback)');
    expect(policy.refusal('::1', 8091, '::1')).toBeNull();
    expect(policy.refusal('standin.local', 8092, '127.0.0.1')).toBeNull();
    expect(policy.refusal('standin.local', 80, '127.0.0.1')).toBe('127.0.0.1 (loopback)');
  });

  test.each([['10.0.0.0/33'], ['sim internal'], ['host:99999'], ['[not-v6]:80'], ['http://sim.internal'], ['10.0.0.1/8/2']])('when an entry is %s, then the list is refused naming it', (entry) => {
    expect(() => parseAllowList(`sim.internal,${entry}`)).toThrow(AllowListError);
    expect(() => parseAllowList(entry)).toThrow(entry);
  });

  test.each([['300.1.1.1'], ['300.1.1.1:8080'], ['10.0.0.256'], ['1.2.3'], ['sim.internal.0x10']])('when an entry is %s (a name ending in a number, which no resolver takes for a name), then the list is refused as a bad IPv4 address naming it', (entry) => {
    expect(() => parseAllowList(`sim.internal,${entry}`)).toThrow(`EGRESS_ALLOW: "${entry}" is not a valid IPv4 address (four numbers from 0 to 255)`);
  });

  test('when a host name holds digits in its labels but ends in letters, then it is a host name', () => {
    expect(parseAllowList('sim-01.10.internal,123abc')).toHaveLength(2);
  });
});
