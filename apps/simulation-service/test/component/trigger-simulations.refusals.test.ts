import { SIMULATION_COMMANDS, type SimulationResults } from '@pitwall/contracts';
import type { Egress } from '@pitwall/egress';
import { ExternalRefusal, ExternalSimulationClient } from '../../src/data-access/external-simulation-client';
import { buildProfile, buildSetup, connect, connection, newAccount, PARAMS, readSetup, startSimulationStack, type SimulationStack } from '../support/simulation-stack';

const BAD_BASE_URLS: [string, string][] = [
  ['file:///etc/passwd', "The simulation profile's BaseUrl is not an http:// or https:// URL (its scheme is file:)"],
  ['ftp://sims.example/api', "The simulation profile's BaseUrl is not an http:// or https:// URL (its scheme is ftp:)"],
  ['unix:/var/run/sim.sock', "The simulation profile's BaseUrl is not an http:// or https:// URL (its scheme is unix:)"],
  ['not a url', "The simulation profile's BaseUrl is not an absolute http:// or https:// URL"],
  ['http://[fe80::1%25lo]:8378', "The simulation profile's BaseUrl is not an absolute http:// or https:// URL"],
  ['http://sims.\texample/api', "The simulation profile's BaseUrl holds CR, LF or tabs, which a URL cannot: write it without them"],
];

describe('POST /ExternalSimulations/Trigger and Reprocess: what is refused before a job is queued', () => {
  let s: SimulationStack;
  beforeAll(async () => {
    s = await startSimulationStack({ scenario: 'slow', slowPolls: 1_000_000 }, { SIMULATION_POLL_INTERVAL_MS: '200' });
  });
  afterAll(() => s.stop());

  describe("a profile's BaseUrl that is not an absolute http(s) URL", () => {
    test.each(BAD_BASE_URLS)('when it is %s, then each setup of a Trigger (with its own credentials, or the account connected) is refused saying so, and nothing is queued', async (baseUrl, reason) => {
      const caller = newAccount();
      const profileId = await buildProfile(s, caller, { BaseUrl: baseUrl });
      const setupId = await buildSetup(s, caller);
      const own = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId], credentials: connection() } });
      expect(own.results).toEqual([{ setupId, accepted: false, studyId: null, message: reason }]);
      await connect(s, caller);
      const connected = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } });
      expect(connected.results).toEqual([{ setupId, accepted: false, studyId: null, message: reason }]);
      expect((await readSetup(s, caller, setupId))[PARAMS.status] ?? null).toBeNull();
    });

    test.each(BAD_BASE_URLS)('when a job meets %s (the profile changed after its Trigger), then the adapter refuses the call without sending it, so the job does not retry it as an outage', async (baseUrl, reason) => {
      const egress = { request: jest.fn() } as unknown as Egress & { request: jest.Mock };
      const client = new ExternalSimulationClient(egress, baseUrl, connection(), 1000);
      const refused = await client.studyStatus('st-1').catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ExternalRefusal);
      expect((refused as Error).message).toBe(`The simulation system was not called: ${reason}`);
      expect(egress.request).not.toHaveBeenCalled();
    });
  });

  describe('a Reprocess whose setup holds a study ID the system cannot be asked about', () => {
    test.each([
      ['..', "'..' would name another path of the system's API"],
      ['.', "'.' would name another path of the system's API"],
      ['x'.repeat(201), 'it is longer than 200 characters (SIMULATION_MAX_STUDY_ID_CHARS)'],
      ['st-\u0001-1', 'it holds control characters'],
    ])('when the parameter holds %s, then the setup is refused saying why and nothing is queued', async (studyId, reason) => {
      const caller = newAccount();
      await connect(s, caller);
      const profileId = await buildProfile(s, caller);
      const setupId = await buildSetup(s, caller, { [PARAMS.studyId]: studyId });
      const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.reprocess, { caller, body: { externalProfileId: profileId, setupIds: [setupId], parameterNameForStudyId: PARAMS.studyId } });
      expect(answer.results).toEqual([{ setupId, accepted: false, studyId: null, message: `The setup's parameter ${PARAMS.studyId} holds no study ID the simulation system can be asked about: ${reason}` }]);
      expect((await readSetup(s, caller, setupId))[PARAMS.status] ?? null).toBeNull();
    });
  });
});
