import { randomUUID } from 'node:crypto';
import { SIMULATION_COMMANDS, type SimulationResults, type SimulationStatusResults } from '@pitwall/contracts';
import { buildProfile, buildSetup, callerIn, connect, connection, newAccount, PARAMS, readSetup, startSimulationStack, waitFor, type SimulationStack } from '../support/simulation-stack';

describe('POST /ExternalSimulations/Trigger and Reprocess (simulation.trigger, simulation.reprocess)', () => {
  let s: SimulationStack;
  beforeAll(async () => {
    // Studies stay running here: these tests look at the answer and the first status, not at the runs.
    s = await startSimulationStack({ scenario: 'slow', slowPolls: 1_000_000 }, { SIMULATION_POLL_INTERVAL_MS: '200' });
  });
  afterAll(() => s.stop());

  test('when valid, unknown, other-account and unconnected setups come in one request, then each gets its own result and only the valid one is queued', async () => {
    const caller = newAccount();
    await connect(s, caller);
    const profileId = await buildProfile(s, caller);
    const valid = await buildSetup(s, caller);
    const unknown = randomUUID();
    const other = newAccount();
    const otherSetup = await buildSetup(s, other);

    const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [valid, unknown, otherSetup] } });
    expect(answer.results).toEqual([
      { setupId: valid, accepted: true, studyId: null, message: null },
      { setupId: unknown, accepted: false, studyId: null, message: 'Setup not found' },
      { setupId: otherSetup, accepted: false, studyId: null, message: 'Setup not found' },
    ]);
    expect((await readSetup(s, caller, valid))[PARAMS.status]).toMatch(/^(Requested|Simulation started|Running)$/);
    expect((await readSetup(s, other, otherSetup))[PARAMS.status] ?? null).toBeNull();

    // Another account, not connected: its own setup is refused for that reason, and nothing is written to it.
    const unconnected = newAccount();
    const unconnectedProfile = await buildProfile(s, unconnected);
    const unconnectedSetup = await buildSetup(s, unconnected);
    const refused = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller: unconnected, body: { externalProfileId: unconnectedProfile, setupIds: [unconnectedSetup] } });
    expect(refused.results).toEqual([{ setupId: unconnectedSetup, accepted: false, studyId: null, message: "The setup's account is not connected to the external simulation system" }]);
    expect((await readSetup(s, unconnected, unconnectedSetup))[PARAMS.status] ?? null).toBeNull();
  });

  test('when an accepted setup is triggered, then its status is Requested at once with an update time, and the event announces it first', async () => {
    const caller = newAccount();
    await connect(s, caller);
    const profileId = await buildProfile(s, caller);
    const setupId = await buildSetup(s, caller);
    await s.request(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId] } });
    const first = await waitFor(() => s.events.find((e) => e.setupId === setupId && e.sequence === 1), 'the first status event');
    expect(first).toMatchObject({ accountId: caller.accountId, profileId, setupId, status: 'Requested', sequence: 1 });
    expect(Date.parse(String((await readSetup(s, caller, setupId))[PARAMS.updated]))).not.toBeNaN();
  });

  test('when credentials come with the request, then an unconnected account is accepted', async () => {
    const caller = newAccount('editor');
    const profileId = await buildProfile(s, caller);
    const setupId = await buildSetup(s, caller);
    const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId], credentials: connection() } });
    expect(answer.results).toEqual([{ setupId, accepted: true, studyId: null, message: null }]);
  });

  test('when "credentials" is null (a wrapper\'s unset optional object), then it counts as omitted: a connected account is accepted and its job logs in with the stored connection, an unconnected one is refused as not connected', async () => {
    const caller = newAccount();
    const stored = await connect(s, caller);
    const profileId = await buildProfile(s, caller);
    const setupId = await buildSetup(s, caller);
    const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId], credentials: null } });
    expect(answer.results).toEqual([{ setupId, accepted: true, studyId: null, message: null }]);
    await waitFor(() => (s.standIn.logins.includes(stored.clientId) ? true : undefined), "the job's login with the stored connection");

    const unconnected = newAccount();
    const otherProfile = await buildProfile(s, unconnected);
    const otherSetup = await buildSetup(s, unconnected, { [PARAMS.studyId]: 'st-1' });
    const refused = await s.request<SimulationResults>(SIMULATION_COMMANDS.reprocess, { caller: unconnected, body: { externalProfileId: otherProfile, setupIds: [otherSetup], parameterNameForStudyId: PARAMS.studyId, credentials: null } });
    expect(refused.results).toEqual([{ setupId: otherSetup, accepted: false, studyId: null, message: "The setup's account is not connected to the external simulation system" }]);
  });

  test('when the credentials are partial, then the whole request is a 400 naming the missing fields and nothing is written', async () => {
    const caller = newAccount();
    const profileId = await buildProfile(s, caller);
    const setupId = await buildSetup(s, caller);
    const refused = s.request(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: profileId, setupIds: [setupId], credentials: { clientId: 'abc', username: 'me' } } });
    await expect(refused).rejects.toMatchObject({ status: 400, errors: { 'body.credentials.clientSecret': [expect.stringMatching(/is required/)], 'body.credentials.password': [expect.stringMatching(/is required/)] } });
    await expect(refused).rejects.not.toMatchObject({ errors: { 'body.credentials.clientId': expect.anything() } });
    expect((await readSetup(s, caller, setupId))[PARAMS.status] ?? null).toBeNull();
  });

  test("when a bus caller sends a reader's context (over HTTP the gateway answers a reader 403 first), then each setup is refused as not writable", async () => {
    const admin = newAccount();
    await connect(s, admin);
    const profileId = await buildProfile(s, admin);
    const setupId = await buildSetup(s, admin);
    const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller: callerIn(admin.accountId, 'reader'), body: { externalProfileId: profileId, setupIds: [setupId] } });
    expect(answer.results).toEqual([{ setupId, accepted: false, studyId: null, message: expect.stringMatching(/reader/) }]);
  });

  test('when the profile names a setup parameter that Setups do not have, or one that cannot hold its value, then each setup is refused with that reason (not "Setup not found"), a reprocess result carries no study ID, and nothing is queued', async () => {
    const caller = newAccount();
    await connect(s, caller);
    const bogus = await buildProfile(s, caller, { StatusParameterName: 'Bogus' });
    const setupId = await buildSetup(s, caller, { [PARAMS.studyId]: 'st-earlier' });
    const trigger = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: bogus, setupIds: [setupId] } });
    expect(trigger.results).toEqual([{ setupId, accepted: false, studyId: null, message: "The simulation profile's StatusParameterName names 'Bogus', which cannot be written to the setup: Setups has no parameter named 'Bogus'" }]);
    const reprocess = await s.request<SimulationResults>(SIMULATION_COMMANDS.reprocess, { caller, body: { externalProfileId: bogus, setupIds: [setupId], parameterNameForStudyId: PARAMS.studyId } });
    expect(reprocess.results).toEqual([{ setupId, accepted: false, studyId: null, message: expect.stringContaining("StatusParameterName names 'Bogus'") }]);

    // A time written to a Double parameter: the value does not convert, and the profile parameter is named.
    const mistyped = await buildProfile(s, caller, { StatusUpdateTimeParameterName: 'LapTime', ResultParameterNames: 'TopSpeed' });
    const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: mistyped, setupIds: [setupId] } });
    expect(answer.results).toEqual([{ setupId, accepted: false, studyId: null, message: expect.stringMatching(/^The simulation profile's StatusUpdateTimeParameterName names 'LapTime', which cannot be written to the setup: .+/) }]);

    // A name of 20,000 characters: the reason is cut at 1,000 characters, not echoed whole (twice) per setup.
    const long = `Bogus${'x'.repeat(20_000)}`;
    const echoing = await buildProfile(s, caller, { StatusParameterName: long });
    const cut = await s.request<SimulationResults>(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: echoing, setupIds: [setupId] } });
    expect(cut.results[0]?.message).toMatch(/^The simulation profile's StatusParameterName names 'Bogusx+…$/);
    expect(cut.results[0]?.message).toHaveLength(1000);

    await new Promise((r) => setTimeout(r, 100));
    expect(s.events.filter((e) => e.setupId === setupId)).toEqual([]);
    expect((await readSetup(s, caller, setupId))[PARAMS.status] ?? null).toBeNull();
  });

  test('when the profile is not in the account, then the request is a 404', async () => {
    const caller = newAccount();
    const setupId = await buildSetup(s, caller);
    await expect(s.request(SIMULATION_COMMANDS.trigger, { caller, body: { externalProfileId: randomUUID(), setupIds: [setupId] } })).rejects.toMatchObject({ status: 404 });
  });

  test('when a setup to reprocess has no study ID, then it is refused, and one with a study ID is accepted with it resolved', async () => {
    const caller = newAccount();
    await connect(s, caller);
    const profileId = await buildProfile(s, caller);
    const withStudy = await buildSetup(s, caller, { [PARAMS.studyId]: 'st-previous-run' });
    const withoutStudy = await buildSetup(s, caller);
    const empty = await buildSetup(s, caller, { [PARAMS.studyId]: '' });
    const answer = await s.request<SimulationResults>(SIMULATION_COMMANDS.reprocess, { caller, body: { externalProfileId: profileId, setupIds: [withStudy, withoutStudy, empty], parameterNameForStudyId: PARAMS.studyId } });
    expect(answer.results).toEqual([
      { setupId: withStudy, accepted: true, studyId: 'st-previous-run', message: null },
      { setupId: withoutStudy, accepted: false, studyId: null, message: `The setup has no study ID in its parameter ${PARAMS.studyId}` },
      { setupId: empty, accepted: false, studyId: null, message: `The setup has no study ID in its parameter ${PARAMS.studyId}` },
    ]);
  });

  test('when the parameter name for the study ID is missing from a reprocess, then it is a 400 naming it', async () => {
    const caller = newAccount();
    await expect(s.request(SIMULATION_COMMANDS.reprocess, { caller, body: { externalProfileId: randomUUID(), setupIds: [randomUUID()] } })).rejects.toMatchObject({ status: 400, errors: { 'body.parameterNameForStudyId': expect.any(Array) } });
  });
});

describe('GET /ExternalSimulations/Status (simulation.status)', () => {
  let s: SimulationStack;
  beforeAll(async () => {
    s = await startSimulationStack();
  });
  afterAll(() => s.stop());

  test('when setups are found and missing, then each gets its entry as the spec shapes it', async () => {
    const caller = newAccount();
    const profileId = await buildProfile(s, caller);
    const setupId = await buildSetup(s, caller, { [PARAMS.status]: 'Simulation started', [PARAMS.studyId]: 'st-88', [PARAMS.updated]: '2026-04-12T14:05:00.000Z' });
    const missing = randomUUID();
    const answer = await s.request<SimulationStatusResults>(SIMULATION_COMMANDS.status, { caller: callerIn(caller.accountId, 'reader'), externalProfileId: profileId, setupIds: [setupId, missing] });
    expect(answer.results).toEqual([
      { setupId, setupFound: true, status: 'Simulation started', message: null, studyId: 'st-88', lastUpdateTime: '2026-04-12T14:05:00.000Z' },
      { setupId: missing, setupFound: false, status: null, message: 'Setup not found', studyId: null, lastUpdateTime: null },
    ]);
  });

  test('when the profile names no status parameter, then status is null with the reason', async () => {
    const caller = newAccount();
    const profileId = await buildProfile(s, caller, { StatusParameterName: null });
    const setupId = await buildSetup(s, caller);
    const answer = await s.request<SimulationStatusResults>(SIMULATION_COMMANDS.status, { caller, externalProfileId: profileId, setupIds: [setupId] });
    expect(answer.results).toEqual([{ setupId, setupFound: true, status: null, message: 'The simulation profile configures no status parameter', studyId: null, lastUpdateTime: null }]);
  });

  test('when the profile names a status parameter Setups does not have, then status is null with that reason; one named in another case is read', async () => {
    const caller = newAccount();
    const bogus = await buildProfile(s, caller, { StatusParameterName: 'Bogus' });
    const setupId = await buildSetup(s, caller, { [PARAMS.status]: 'Processing completed', [PARAMS.message]: 'done' });
    const answer = await s.request<SimulationStatusResults>(SIMULATION_COMMANDS.status, { caller, externalProfileId: bogus, setupIds: [setupId] });
    expect(answer.results).toEqual([{ setupId, setupFound: true, status: null, message: "The simulation profile's StatusParameterName names 'Bogus', but Setups has no parameter named 'Bogus'", studyId: null, lastUpdateTime: null }]);
    const otherCase = await buildProfile(s, caller, { StatusParameterName: PARAMS.status.toLowerCase(), StatusMessageParameterName: PARAMS.message.toUpperCase() });
    const read = await s.request<SimulationStatusResults>(SIMULATION_COMMANDS.status, { caller, externalProfileId: otherCase, setupIds: [setupId] });
    expect(read.results[0]).toMatchObject({ status: 'Processing completed', message: 'done' });
  });

  test('when the profile names parameters after members every JavaScript object has (constructor, toString, __proto__, valueOf), then each is a parameter Setups does not have, not a function\'s text', async () => {
    const caller = newAccount();
    const profileId = await buildProfile(s, caller, { StatusParameterName: 'constructor', StatusMessageParameterName: 'toString', StudyIdParameterName: '__proto__', StatusUpdateTimeParameterName: 'valueOf' });
    const setupId = await buildSetup(s, caller);
    const answer = await s.request<SimulationStatusResults>(SIMULATION_COMMANDS.status, { caller, externalProfileId: profileId, setupIds: [setupId] });
    expect(answer.results).toEqual([{ setupId, setupFound: true, status: null, message: "The simulation profile's StatusParameterName names 'constructor', but Setups has no parameter named 'constructor'", studyId: null, lastUpdateTime: null }]);
  });

  test("when another account's setup is asked for, then it is not found", async () => {
    const caller = newAccount();
    const profileId = await buildProfile(s, caller);
    const otherSetup = await buildSetup(s, newAccount());
    const answer = await s.request<SimulationStatusResults>(SIMULATION_COMMANDS.status, { caller, externalProfileId: profileId, setupIds: [otherSetup] });
    expect(answer.results[0]).toMatchObject({ setupId: otherSetup, setupFound: false, message: 'Setup not found' });
  });
});

describe('PUT /ExternalSimulations/Connection (simulation.connection.put)', () => {
  let s: SimulationStack;
  beforeAll(async () => {
    s = await startSimulationStack();
  });
  afterAll(() => s.stop());

  test('when an admin stores a connection, then it is sealed in the database (no secret in clear) and replaced by the next one', async () => {
    const caller = newAccount();
    const secret = connection({ clientSecret: `plain-${randomUUID()}` });
    expect(await s.request(SIMULATION_COMMANDS.putConnection, { caller, body: secret })).toBeNull();
    const { Client } = await import('pg');
    const db = new Client({ connectionString: s.stack.databaseUrl });
    await db.connect();
    try {
      const read = async () => (await db.query<{ sealed: Buffer }>('SELECT sealed FROM simulation.connections WHERE account_id = $1', [caller.accountId])).rows;
      const [row] = await read();
      expect(row?.sealed.includes(Buffer.from(secret.clientSecret))).toBe(false);
      expect(row?.sealed.includes(Buffer.from(secret.password))).toBe(false);
      await s.request(SIMULATION_COMMANDS.putConnection, { caller, body: connection() });
      const rows = await read();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.sealed.equals(row?.sealed as Buffer)).toBe(false);
    } finally {
      await db.end();
    }
  });

  test('when "baseUrl" is null (a wrapper\'s unset string), then it is the same as omitted: stored bound to no origin; a URL binds it to its origin', async () => {
    const caller = newAccount();
    const { Client } = await import('pg');
    const db = new Client({ connectionString: s.stack.databaseUrl });
    await db.connect();
    const origin = async () => (await db.query<{ origin: string | null }>('SELECT origin FROM simulation.connections WHERE account_id = $1', [caller.accountId])).rows[0]?.origin;
    try {
      await s.request(SIMULATION_COMMANDS.putConnection, { caller, body: { ...connection(), baseUrl: 'https://sim.team.example:8443/farm/' } });
      expect(await origin()).toBe('https://sim.team.example:8443');
      expect(await s.request(SIMULATION_COMMANDS.putConnection, { caller, body: { ...connection(), baseUrl: null } })).toBeNull();
      expect(await origin()).toBeNull();
    } finally {
      await db.end();
    }
  });

  test('when an editor sets the connection, then it is a 403', async () => {
    await expect(s.request(SIMULATION_COMMANDS.putConnection, { caller: newAccount('editor'), body: connection() })).rejects.toMatchObject({ status: 403 });
  });

  test('when a field is missing, then it is a 400 naming it', async () => {
    await expect(s.request(SIMULATION_COMMANDS.putConnection, { caller: newAccount(), body: { clientId: 'a', clientSecret: 'b', username: 'c' } })).rejects.toMatchObject({ status: 400, errors: { 'body.password': expect.any(Array) } });
  });
});
