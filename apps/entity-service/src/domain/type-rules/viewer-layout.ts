import { VIEWER_LAYOUT_VERSION } from '@pitwall/contracts';
import { AppError, type FieldErrors } from '@pitwall/service-kit';
import { entityRepository as repo } from '../../data-access/entity-repository';
import type { ParameterValue } from '../parameters';
import type { TypeRule } from './type-rule';

/**
 * A viewer layout (docs/viewer.md, Layouts): a name no other layout of the account has (whatever its case), and a
 * Layout the viewer can read: `name=value` pairs joined by `&`, URL-encoded as the viewer's link writes them, with its
 * version (`v=1`), at most `MAX_VIEWER_LAYOUT_LENGTH` characters. What the pairs say (channels, panes, y scales) is
 * the viewer's to read, as it reads a link: a part it does not know is said and left out when applied. Writes of an
 * account's layouts are serialised, so two concurrent creates cannot take one name.
 */
export const viewerLayout: TypeRule = {
  async beforeWrite(q, accountId, { parameters, existing }, limits) {
    validateViewerLayout(parameters, limits.maxViewerLayoutLength);
    await repo.lockEntityType(q, accountId, 'ViewerLayouts');
    const name = String(parameters['Name']);
    const clash = (await repo.entitiesOfType(q, accountId, 'ViewerLayouts')).find((d) => d.id !== existing?.id && String(d.parameters['Name'] ?? '').toLowerCase() === name.toLowerCase());
    if (clash) throw AppError.badRequest('The viewer layout is not valid', { Name: [`another layout is named ${String(clash.parameters['Name'])}`] });
  },
};

/** One pair of a link's query: a name and a value of URL-encoded characters (what URLSearchParams and encodeURIComponent write). */
const PAIR = /^[A-Za-z0-9._~*'()!$,;:@/?+%-]+=[A-Za-z0-9._~*'()!$,;:@/?+%=-]*$/;

/** Checks a layout's fields, each refusal naming the field and what is wrong with it (every field at once). */
export function validateViewerLayout(p: Record<string, ParameterValue>, maxLength: number): void {
  const errors: FieldErrors = {};
  const name = typeof p['Name'] === 'string' ? p['Name'] : '';
  if (!name.trim()) errors['Name'] = ['is required'];
  else if (name.length > 200 || /\p{Cc}/u.test(name)) errors['Name'] = ['must be at most 200 characters, without control characters'];
  const layout = typeof p['Layout'] === 'string' ? p['Layout'] : '';
  const problem = layoutProblem(layout, maxLength);
  if (problem) errors['Layout'] = [problem];
  if (Object.keys(errors).length) throw AppError.badRequest('The viewer layout is not valid', errors);
}

/** What is wrong with a Layout's text, or null when the viewer can read it. */
function layoutProblem(layout: string, maxLength: number): string | null {
  if (!layout.trim()) return `is required: the viewer's view as v=${VIEWER_LAYOUT_VERSION}&ch=<channel>&…`;
  if (layout.length > maxLength) return `must be at most ${maxLength} characters (MAX_VIEWER_LAYOUT_LENGTH), not ${layout.length}`;
  const pairs = layout.split('&');
  for (const [index, pair] of pairs.entries()) {
    const shown = pair.length > 40 ? `${pair.slice(0, 40)}…` : pair;
    if (!PAIR.test(pair)) return `must be name=value pairs joined by &, URL-encoded as the viewer's link writes them: pair ${index + 1} "${shown}" is not`;
    try {
      for (const part of pair.split('=')) decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return `must be name=value pairs joined by &, URL-encoded as the viewer's link writes them: pair ${index + 1} "${shown}" holds a % that is not an encoded UTF-8 character`;
    }
  }
  const versions = pairs.filter((pair) => pair.startsWith('v='));
  if (versions.length !== 1) return `must give its version once, as v=${VIEWER_LAYOUT_VERSION} (the layout format this service knows)${versions.length ? `, not ${versions.length} times` : ''}`;
  const version = (versions[0] as string).slice(2);
  if (version !== String(VIEWER_LAYOUT_VERSION)) return `v=${version.slice(0, 20)} is not a layout version this service knows: it knows v=${VIEWER_LAYOUT_VERSION}`;
  return null;
}
