/** What a failed API call left: its HTTP status (0 when no answer came), its problem+json body, its Retry-After. */
export interface ApiFailureInfo {
  status: number;
  problem?: { title?: string; detail?: string; errors?: Record<string, string[]> } | undefined;
  retryAfter?: string | null | undefined;
  /** Why the request did not complete (network), when status is 0. */
  reason?: string;
}

/** A failed API call; `message` is what the page shows. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** `message`: the sentence the page shows, when the action that failed says it better than its status does. */
  constructor(
    readonly info: ApiFailureInfo,
    message = failureMessage(info),
  ) {
    super(message);
  }
  get status(): number {
    return this.info.status;
  }
}

/** The plain sentence the page shows for a failed call (docs/api.md's error table, in a user's words). */
export function failureMessage(info: ApiFailureInfo): string {
  const detail = info.problem?.detail ?? info.problem?.title;
  const why = failureReason(info);
  const suffix = why ? ` (${why})` : '';
  switch (info.status) {
    case 0:
      // The browser's own words ("Failed to fetch") say nothing to a race engineer: they are the error's tooltip.
      return 'The service could not be reached (is it running? is the network up?).';
    case 400:
      if (info.problem?.errors?.['Expression'] || info.problem?.errors?.['Name']) return `The math channel was not saved${suffix}.`;
      // The reason is both the detail and the field's error: say it once.
      if (info.problem?.errors?.['distanceChannel']) return `The service refused the "Distance from" channel (400): ${info.problem.errors['distanceChannel'].join(', ')}.`;
      // A 400 is what was asked, not how: an unknown channel, a lap past the file's, a threshold naming no channel.
      return `The service refused what was asked (400${why ? `: ${why}` : ''}).`;
    case 401:
      return 'The API key was not accepted (401): check the key, or ask an administrator for a new one.';
    case 403:
      return `This API key may not do that in this account (403)${suffix}.`;
    case 404:
      return `Not found (404): it does not exist in this account or this key may not see it${suffix}.`;
    case 415:
      return `The file is not in a format the service can read (415)${suffix}.`;
    case 422:
      // The math channel chosen in "Distance from" that a lap's file cannot compute (a param() its car lacks): said as
      // the choice it is, with the service's reason (which names the channel and the entities looked at).
      if (info.problem?.errors?.['distanceChannel']) return `The "Distance from" channel cannot be computed for a lap's file (422): ${info.problem.errors['distanceChannel'].join(', ')}. Choose another in "Distance from", or Automatic.`;
      // A 422 is a file the service cannot do this with: damaged only when the service says it could not read it.
      if (detail?.includes('math channel')) return `A math channel cannot be computed for this file (422)${suffix}.`;
      // The service's detail lists every name it looked for (hundreds of characters): said in a line, the list is the error's title.
      if (detail?.includes('track map')) return 'This file lacks the channels a track map needs (422): GPS latitude and longitude, or a speed with a yaw rate or with a lateral acceleration.';
      if (detail?.includes('no distance channel')) return 'This file has no distance channel and no speed channel to measure its laps by (422): pick one in "Distance from" if it has one under another name.';
      if (!detail || detail.includes('could not be read')) return `The file could not be read: it is damaged (422)${suffix}.`;
      return `The service cannot do this with this file (422)${suffix}.`;
    case 429: {
      const seconds = Number(info.retryAfter);
      const when = Number.isFinite(seconds) && seconds > 0 ? `in ${seconds} s` : 'in a moment';
      return `Too many reads are running for this user (429): try again ${when}.`;
    }
    case 503:
      return `The service is unavailable for now, nothing was done (503)${suffix}. Try again.`;
    case 504:
      return `The service did not answer in time (504)${suffix}.`;
    default:
      return `The service answered ${info.status}${suffix}.`;
  }
}

/** The service's reason for a failure: its detail and each field's errors (`Name: another layout is named X`), or ''. */
export function failureReason(info: ApiFailureInfo): string {
  const detail = info.problem?.detail ?? info.problem?.title;
  // A field's reason the detail already gives (a read's 422 names the math channel in both) is said once.
  const fields = Object.entries(info.problem?.errors ?? {})
    .map(([k, v]) => [k, v.filter((reason) => !detail?.includes(reason))] as const)
    .filter(([, v]) => v.length > 0)
    .map(([k, v]) => `${k}: ${v.join(', ')}`);
  return [detail, ...fields].filter(Boolean).join('; ');
}
