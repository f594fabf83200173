import { ApiError } from './errors';

/** A channel of a read that the service refused on its own, and its reason as the service gave it. */
export interface RefusedChannel {
  name: string;
  why: string;
}

/** The longest reason of a channel's refusal said in the status line. */
const REFUSAL_REASON_MAX = 200;

/**
 * The channels of a read (`asked`) that the service refused each on its own: a 422 or 400 whose `errors` name only
 * `channels[i]` fields, each with the service's reason (cut to REFUSAL_REASON_MAX characters); null when the read was
 * refused for anything else.
 */
export function refusedChannels(err: unknown, asked: readonly string[]): RefusedChannel[] | null {
  return refusedFields(err, asked.map((name, i) => [`channels[${i}]`, name] as const))?.map(({ name, why }) => ({ name, why })) ?? null;
}

/**
 * The channels of a read that names each in a field of its own (`named`: [field, channel], as a scatter's `x`, `y` and
 * `colour`) that the service refused each on its own: a 422 or 400 whose `errors` name only those fields, each with the
 * service's reason (cut to REFUSAL_REASON_MAX characters); null when the read was refused for anything else.
 */
export function refusedFields(err: unknown, named: readonly (readonly [field: string, channel: string])[]): (RefusedChannel & { field: string })[] | null {
  if (!(err instanceof ApiError) || (err.status !== 422 && err.status !== 400)) return null;
  const fields = Object.entries(err.info.problem?.errors ?? {});
  if (fields.length === 0) return null;
  const refused: (RefusedChannel & { field: string })[] = [];
  for (const [field, reasons] of fields) {
    const name = named.find(([f]) => f === field)?.[1];
    if (name === undefined) return null;
    const why = reasons.join(', ');
    refused.push({ field, name, why: why.length > REFUSAL_REASON_MAX ? `${why.slice(0, REFUSAL_REASON_MAX - 1)}…` : why || `refused (${err.status})` });
  }
  return refused;
}

/** A read of channels answered: the answer to those `asked` (the ones not refused), and the channels refused. */
export interface ReadAnswered<T> {
  answer: T;
  asked: string[];
  unread: RefusedChannel[];
}

/** Every channel of a read refused on its own: nothing read, `error` the last refusal. */
export interface NoneRead {
  answer: null;
  asked: [];
  unread: RefusedChannel[];
  error: unknown;
}

/**
 * `read` of the channels `names`, read again without the channels the service refuses on their own (a math channel
 * whose constant or input the file lacks: refusedChannels) until it answers. Any other failure is thrown. When every
 * channel is refused: thrown too, unless `noneRead` (a lap of the comparison whose file computes none of them while
 * the other laps' do), which answers null with the refusals.
 */
export function readWithoutRefused<T>(names: readonly string[], read: (asked: string[]) => Promise<T>): Promise<ReadAnswered<T>>;
export function readWithoutRefused<T>(names: readonly string[], read: (asked: string[]) => Promise<T>, noneRead: true): Promise<ReadAnswered<T> | NoneRead>;
export async function readWithoutRefused<T>(names: readonly string[], read: (asked: string[]) => Promise<T>, noneRead = false): Promise<ReadAnswered<T> | NoneRead> {
  const unread: RefusedChannel[] = [];
  let asked = [...names];
  for (;;) {
    try {
      return { answer: await read(asked), asked, unread };
    } catch (err) {
      const refused = refusedChannels(err, asked);
      if (!refused) throw err;
      if (refused.length >= asked.length) {
        if (!noneRead) throw err;
        return { answer: null, asked: [], unread: [...unread, ...refused], error: err };
      }
      unread.push(...refused);
      asked = asked.filter((n) => !refused.some((r) => r.name === n));
    }
  }
}

/** The laps named in a channel's refusal, past which the others are counted. */
const SAID_LAPS = 3;

/**
 * What of the comparison was not read (`unread[i]`: the channels refused for lap i), one problem a channel and reason
 * with the laps it was refused for: `"Steer" for Run 9 / DataFile lap 2 (1:03.680) (math channel Steer reads ...)`.
 */
export function unreadByChannel(overlay: readonly { label: string }[], unread: readonly (readonly RefusedChannel[])[]): string[] {
  const said = new Map<string, { name: string; why: string; laps: string[] }>();
  unread.forEach((refused, i) => {
    for (const r of refused) {
      const key = JSON.stringify([r.name, r.why]);
      const entry = said.get(key) ?? { name: r.name, why: r.why, laps: [] };
      entry.laps.push(overlay[i]?.label ?? `lap ${i + 1}`);
      said.set(key, entry);
    }
  });
  return [...said.values()].map((u) => {
    const laps = u.laps.length === overlay.length && overlay.length > 1 ? 'every lap' : u.laps.length > SAID_LAPS ? `${u.laps.slice(0, SAID_LAPS).join(', ')} and ${u.laps.length - SAID_LAPS} more laps` : u.laps.join(', ');
    return `"${u.name.slice(0, 80)}" for ${laps} (${u.why})`;
  });
}

/**
 * An analysis read (a scatter, a histogram) refused for channels it cannot do without (`refused`, each named by
 * `roleOf` its field: `X channel`), said as that read's: `The scatter was not drawn: the service could not read its X
 * channel "Speed scaled" (422: math channel Speed scaled reads param("Missing"), ...).`, the service's own reason.
 */
export function refusedRead(what: string, status: number, refused: readonly (RefusedChannel & { field: string })[], roleOf: (field: string) => string): string {
  const channels = refused.map((r) => `${roleOf(r.field)} "${r.name.slice(0, 80)}" (${status}: ${r.why})`);
  return `${what} was not drawn: the service could not read its ${channels.join(' nor its ')}.`;
}

/** A plot drawn without its colour channel, which the service refused on its own: why, in a few words. */
export function notColouredBy(refused: RefusedChannel): string {
  return `not coloured by "${refused.name.slice(0, 80)}": the service could not read it (${refused.why})`;
}

/** A part of a status (`not coloured by ...`) as a sentence of a caption: capitalised, ended by a full stop. */
export function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
