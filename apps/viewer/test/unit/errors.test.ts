import { ApiError, failureMessage } from '../../src/errors';

describe('failureMessage: what the page says for a failed API call', () => {
  test.each([
    [401, undefined, undefined, 'The API key was not accepted (401): check the key, or ask an administrator for a new one.'],
    [404, { detail: 'No such RunSheet' }, undefined, 'Not found (404): it does not exist in this account or this key may not see it (No such RunSheet).'],
    [415, { detail: 'not a MoTeC .ld, MDF 4 or CSV file' }, undefined, 'The file is not in a format the service can read (415) (not a MoTeC .ld, MDF 4 or CSV file).'],
    [422, { detail: 'The data file could not be read: channel block 3 runs past the end' }, undefined, 'The file could not be read: it is damaged (422) (The data file could not be read: channel block 3 runs past the end).'],
    [429, undefined, '2', 'Too many reads are running for this user (429): try again in 2 s.'],
    [429, undefined, null, 'Too many reads are running for this user (429): try again in a moment.'],
    [400, { title: 'Bad Request', errors: { lapIndex: ['must be 0 to 4'] } }, undefined, 'The service refused what was asked (400: Bad Request; lapIndex: must be 0 to 4).'],
    [400, { detail: 'distanceChannel: Throttle Pos is in \'%\', neither a distance (m, km) nor a speed (km/h, kph, m/s, mph, knots)', errors: { distanceChannel: ["Throttle Pos is in '%', neither a distance (m, km) nor a speed (km/h, kph, m/s, mph, knots)"] } }, undefined, 'The service refused the "Distance from" channel (400): Throttle Pos is in \'%\', neither a distance (m, km) nor a speed (km/h, kph, m/s, mph, knots).'],
    [422, { detail: 'The data file could not be read: RunSheets r2 dataset \'DataFile\': math channel Speed ms reads Ground Speed, which this file does not have' }, undefined, 'A math channel cannot be computed for this file (422) (The data file could not be read: RunSheets r2 dataset \'DataFile\': math channel Speed ms reads Ground Speed, which this file does not have).'],
    [422, { detail: 'The data file could not be read: RunSheets r9 dataset \'DataFile\': math channel Speed corrected reads param("SpeedFactor"), which none of RunSheets r9 ("Run 9"), Cars c9 ("Car 9") holds as a number (a Double, Integer or Boolean parameter)', errors: { distanceChannel: ['math channel Speed corrected reads param("SpeedFactor"), which none of RunSheets r9 ("Run 9"), Cars c9 ("Car 9") holds as a number (a Double, Integer or Boolean parameter)'] } }, undefined, 'The "Distance from" channel cannot be computed for a lap\'s file (422): math channel Speed corrected reads param("SpeedFactor"), which none of RunSheets r9 ("Run 9"), Cars c9 ("Car 9") holds as a number (a Double, Integer or Boolean parameter). Choose another in "Distance from", or Automatic.'],
    [400, { detail: 'The math channel is not valid', errors: { Expression: ['at character 16: expected expression after *'] } }, undefined, 'The math channel was not saved (The math channel is not valid; Expression: at character 16: expected expression after *).'],
    [422, { detail: 'The data file could not be read: math channel Power reads Nope, which this file does not have', errors: { channel: ['math channel Power reads Nope, which this file does not have'] } }, undefined, 'A math channel cannot be computed for this file (422) (The data file could not be read: math channel Power reads Nope, which this file does not have).'],
    [422, { detail: "RunSheets r1 dataset 'DataFile' has no source of a track map; missing GPS: a latitude channel (GPS Latitude, GPS Lat, Latitude, GPS Lat Position in deg) and a longitude channel (GPS Longitude, GPS Long); yaw-rate: a speed channel (Ground Speed, Speed) and a yaw rate channel (Gyro Yaw Velocity, Yaw Rate)" }, undefined, 'This file lacks the channels a track map needs (422): GPS latitude and longitude, or a speed with a yaw rate or with a lateral acceleration.'],
    [422, { detail: "RunSheets r1 dataset 'DataFile' has no distance channel (a name like 'Distance' or 'Lap Distance' in m or km) and no speed channel to integrate" }, undefined, 'This file has no distance channel and no speed channel to measure its laps by (422): pick one in "Distance from" if it has one under another name.'],
    [422, { detail: 'the window holds no sample of Throttle Pos' }, undefined, 'The service cannot do this with this file (422) (the window holds no sample of Throttle Pos).'],
    [503, undefined, '1', 'The service is unavailable for now, nothing was done (503). Try again.'],
    [500, { title: 'Internal Server Error' }, undefined, 'The service answered 500 (Internal Server Error).'],
  ])('when the answer is %i, then a plain sentence naming it', (status, problem, retryAfter, expected) => {
    expect(failureMessage({ status, problem, retryAfter })).toBe(expected);
  });

  test('when no answer came, then it says the service could not be reached and what to check, without the browser\'s words', () => {
    const message = new ApiError({ status: 0, reason: 'Failed to fetch' }).message;
    expect(message).toBe('The service could not be reached (is it running? is the network up?).');
    expect(message).not.toContain('fetch');
  });
});
