import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PitwallClient } from '@pitwall/client';
import { ROOT, type Embedded } from './embedded';

export const SAMPLE_LD = join(ROOT, 'libs', 'formats', 'test', 'fixtures', 'telemetry', 'Sample1.ld');

export interface SeededRun {
  championship: string;
  event: string;
  session: string;
  car: string;
  runSheet: string;
  group: string;
}

function must<T>(result: { success: boolean; statusCode: number; message: string; returnValue: T | null }, what: string): T {
  if (!result.success || result.returnValue === null) throw new Error(`${what}: ${result.statusCode} ${result.message}`);
  return result.returnValue;
}

const name = (Name: string) => ({ ParameterUpdates: [{ Name: 'Name', Value: Name }] });

/**
 * Championship → event → session → car (entered in the event, with its SessionCarData) → run sheet, with `file`
 * attached to the run sheet through the API (prepare, PUT the bytes to the signed URL, finalise to state 2).
 */
export async function seedRun(stack: Embedded, names: { championship: string; runSheet: string }, file = SAMPLE_LD, group = 'DataFile'): Promise<SeededRun> {
  const c = new PitwallClient({ baseUrl: stack.baseUrl, apiKey: stack.apiKey, accountId: stack.accountId });
  const championship = must(await c.addChampionship(name(names.championship)), 'championship').Id;
  const event = must(await c.addEvent(championship, name('Round 1')), 'event').Id;
  const session = must(await c.addSession(event, name('Race')), 'session').Id;
  const car = must(await c.addCar(name('Car 7')), 'car').Id;
  must(await c.addEventCar(event, car, {}), 'event car');
  must(await c.addSessionCarData(session, car, name('Car 7 data')), 'session car data');
  return { championship, event, session, car, ...(await seedRunSheet(stack, { session, car }, names.runSheet, file, group)) };
}

/** Another run sheet of the same session and car, with `file` attached as its dataset `group`. */
export async function seedRunSheet(stack: Embedded, where: { session: string; car: string }, runSheetName: string, file = SAMPLE_LD, group = 'DataFile'): Promise<{ runSheet: string; group: string }> {
  const c = new PitwallClient({ baseUrl: stack.baseUrl, apiKey: stack.apiKey, accountId: stack.accountId });
  const { session, car } = where;
  const runSheet = must(await c.addRunSheet(session, car, name(runSheetName)), 'run sheet').Id;
  await attachToRunSheet(stack, runSheet, file, group);
  return { runSheet, group };
}

/** `file` attached to the run sheet `runSheet` as its dataset `group` (a run sheet may hold several). */
export async function attachToRunSheet(stack: Embedded, runSheet: string, file = SAMPLE_LD, group = 'DataFile'): Promise<void> {
  const c = new PitwallClient({ baseUrl: stack.baseUrl, apiKey: stack.apiKey, accountId: stack.accountId });
  const prepared = must(await c.prepareRunSheetAttachment(runSheet, { FileName: basename(file), AttachedFileGroupName: group }), 'prepare attachment');
  const put = await fetch(prepared.Url, { method: 'PUT', body: readFileSync(file), headers: { 'Content-Type': 'application/octet-stream' } });
  if (!put.ok) throw new Error(`upload: ${put.status} ${await put.text()}`);
  must(await c.updateRunSheetAttachment(runSheet, prepared.AttachedFileId, { ParameterUpdates: [{ Name: 'ServerAttachedFileState', Value: '2' }] }), 'finalise attachment');
}
