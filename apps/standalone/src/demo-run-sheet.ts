import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PitwallClient, type ClientResult } from '@pitwall/client';
import { createDemoLdFile } from '@pitwall/formats';

/** The demo run sheet `npm start` seeds: the group holding its telemetry file, and a channel and lap to read. */
export interface DemoRunSheet {
  runSheetId: string;
  group: string;
  channel: string;
  lapIndex: number;
}

const GROUP = 'DataFile';
const FILE_NAME = 'demo-outing.ld';

/**
 * Seeds, once per data directory, a demo run sheet carrying a telemetry file the project's own generator writes
 * (`createDemoLdFile`: out-lap, 3 flying laps, in-lap, 29 channels with a GPS position), through the public API as a user would: the
 * championship, event, session and car (entered in the event) it belongs to, the run sheet, and the file attached by
 * the upload flow (prepare, PUT to the signed URL, finalise), so it is available (state 2) when this returns. Its id
 * is kept in `DATA_DIR/demo-run-sheet`; a restart finds it again, and seeds anew only when it is gone.
 */
export async function seedDemoRunSheet(baseUrl: string, demo: { accountId: string; apiKey: string }, dataDir: string): Promise<DemoRunSheet> {
  const client = new PitwallClient({ baseUrl, ...demo, timeoutMs: 60_000 });
  const marker = join(dataDir, 'demo-run-sheet');
  const seeded = (runSheetId: string): DemoRunSheet => ({ runSheetId, group: GROUP, channel: 'Ground Speed', lapIndex: 1 });

  const known = (await readFile(marker, 'utf8').catch(() => '')).trim();
  if (known) {
    const files = await client.getRunSheetAttachments(known);
    if (files.success && files.returnValue?.some((f) => f.Parameters['FileName'] === FILE_NAME && String(f.Parameters['ServerAttachedFileState']) === '2')) return seeded(known);
  }

  const name = (value: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: value }] });
  const championshipId = idOf(await client.addChampionship({ ParameterUpdates: [...name('Demo Championship').ParameterUpdates, { Name: 'Year', Value: '2026' }] }), 'the demo championship');
  const eventId = idOf(await client.addEvent(championshipId, name('Demo day')), 'the demo event');
  const sessionId = idOf(await client.addSession(eventId, { ParameterUpdates: [...name('Practice 1').ParameterUpdates, { Name: 'SessionType', Value: 'Practice' }] }), 'the demo session');
  const carId = idOf(await client.addCar({ ParameterUpdates: [...name('Demo car').ParameterUpdates, { Name: 'Number', Value: '1' }] }), 'the demo car');
  idOf(await client.addEventCar(eventId, carId, name('Demo car')), 'the demo car entry');
  const runSheetId = idOf(await client.addRunSheet(sessionId, carId, name('Run 1')), 'the demo run sheet');
  const uploaded = await client.uploadAttachment('RunSheets', runSheetId, createDemoLdFile({ fullChannelSet: true }), { FileName: FILE_NAME, AttachedFileGroupName: GROUP });
  if (!uploaded.success) throw new Error(`seeding the demo telemetry file failed: ${uploaded.statusCode} ${uploaded.message}`);
  await writeFile(marker, `${runSheetId}\n`);
  return seeded(runSheetId);
}

/** The lines `npm start` prints about the demo run sheet: its data file metadata and one lap of one channel. */
export function demoRunSheetLines(baseUrl: string, demo: { accountId: string; apiKey: string }, seeded: DemoRunSheet): string[] {
  const auth = `-H 'ApiKey: ${demo.apiKey}' -H 'AccountId: ${demo.accountId}'`;
  const dataset = `${baseUrl}/RunSheets/${seeded.runSheetId}/DataFileAccess/${encodeURIComponent(seeded.group)}`;
  return [
    `Demo run sheet ${seeded.runSheetId} carries a generated telemetry file (group ${seeded.group}). Its metadata, then ${seeded.channel} over lapIndex ${seeded.lapIndex} (lap indexes count from 0: the out-lap is 0, this is the first flying lap):`,
    `  curl -s ${dataset}/metadata ${auth}`,
    `  curl -s '${dataset}/channel?channel=${encodeURIComponent(seeded.channel)}&lapIndex=${seeded.lapIndex}' ${auth}`,
  ];
}

function idOf(result: ClientResult<{ Id: string }>, what: string): string {
  if (!result.success || !result.returnValue) throw new Error(`seeding ${what} failed: ${result.statusCode} ${result.message}`);
  return result.returnValue.Id;
}
