export { AddressPolicy, AllowListError, parseAllowList, refusedRange } from './address-policy';
export { Egress, systemLookup, systemLookupWith, type EgressRequest, type EgressResponse, type EgressSettings, type Lookup, type ResolvedAddress } from './egress-client';
export { EgressConfig, egressSettings } from './egress-config';
export { AddressNotAllowed, EgressError, EgressInvalidRequest, EgressTimeout, EgressUnreachable, ResponseTooLarge } from './egress-errors';
