import { VIEWER_LAYOUT_VERSION, VIEWER_Y_SCALE_MIN_SPAN } from '@pitwall/contracts';
import { AppError, shortened, type FieldErrors } from '@pitwall/service-kit';
import { entityRepository as repo } from '../../data-access/entity-repository';
import type { ParameterValue } from '../parameters';
import { definitionNameProblem } from './definition-name';
import type { TypeRule } from './type-rule';

/**
 * A viewer layout (docs/viewer.md, Layouts): a name no other layout of the account has (whatever its case), and a
 * Layout the viewer can read: `name=value` pairs joined by `&`, URL-encoded as the viewer's link writes them, with its
 * version (`v=1`), at most `MAX_VIEWER_LAYOUT_LENGTH` characters, its y scales (`y=<min>,<max>,<pane>`) ranges a plot
 * can step through. What else the pairs say (channels, panes) is the viewer's to read, as it reads a link: a part it
 * does not know is said and left out when applied. A Description of at most 1,000 characters (the viewer lists them
 * all at sign-in), and on create room for it (`MAX_VIEWER_LAYOUTS`, a 409). Writes of an account's layouts are
 * serialised, so two concurrent creates cannot take one name.
 */
export const viewerLayout: TypeRule = {
  async beforeWrite(q, accountId, { parameters, existing }, limits) {
    validateViewerLayout(parameters, limits.maxViewerLayoutLength, existing ? String(existing.parameters['Name'] ?? '') : undefined);
    await repo.lockEntityType(q, accountId, 'ViewerLayouts');
    const others = (await repo.entitiesOfType(q, accountId, 'ViewerLayouts')).filter((d) => d.id !== existing?.id);
    if (!existing && others.length >= limits.maxViewerLayouts) {
      throw AppError.conflict(`The account already has ${others.length} viewer layout${others.length === 1 ? '' : 's'}, the most it may hold (MAX_VIEWER_LAYOUTS is ${limits.maxViewerLayouts}): delete one first`);
    }
    const name = String(parameters['Name']);
    const clash = others.find((d) => String(d.parameters['Name'] ?? '').toLowerCase() === name.toLowerCase());
    if (clash) throw AppError.badRequest('The viewer layout is not valid', { Name: [`another layout is named ${String(clash.parameters['Name'])}`] });
  },
};

/** The longest Description: a line under the layout's name, listed with every layout at sign-in. */
export const MAX_VIEWER_LAYOUT_DESCRIPTION = 1_000;

/** One pair of a link's query: a name and a value of URL-encoded characters (what URLSearchParams and encodeURIComponent write). */
const PAIR = /^[A-Za-z0-9._~*'()!$,;:@/?+%-]+=[A-Za-z0-9._~*'()!$,;:@/?+%=-]*$/;

/**
 * Checks a layout's fields, each refusal naming the field and what is wrong with it (every field at once).
 * `storedName`: the name stored, on update.
 */
export function validateViewerLayout(p: Record<string, ParameterValue>, maxLength: number, storedName?: string): void {
  const errors: FieldErrors = {};
  const nameProblem = definitionNameProblem(typeof p['Name'] === 'string' ? p['Name'] : '', undefined, storedName);
  if (nameProblem) errors['Name'] = [nameProblem];
  const layout = typeof p['Layout'] === 'string' ? p['Layout'] : '';
  const problem = layoutProblem(layout, maxLength);
  if (problem) errors['Layout'] = [problem];
  const description = p['Description'];
  if (typeof description === 'string' && description.length > MAX_VIEWER_LAYOUT_DESCRIPTION) {
    errors['Description'] = [`must be at most ${MAX_VIEWER_LAYOUT_DESCRIPTION.toLocaleString('en')} characters, not ${description.length.toLocaleString('en')}`];
  }
  if (Object.keys(errors).length) throw AppError.badRequest('The viewer layout is not valid', errors);
}

/** What is wrong with a Layout's text, or null when the viewer can read it. */
function layoutProblem(layout: string, maxLength: number): string | null {
  if (!layout.trim()) return `is required: the viewer's view as v=${VIEWER_LAYOUT_VERSION}&ch=<channel>&…`;
  if (layout.length > maxLength) return `must be at most ${maxLength} characters (MAX_VIEWER_LAYOUT_LENGTH), not ${layout.length}`;
  for (const [index, pair] of layout.split('&').entries()) {
    const shown = shortened(pair, 40);
    if (!PAIR.test(pair)) return `must be name=value pairs joined by &, URL-encoded as the viewer's link writes them: pair ${index + 1} "${shown}" is not`;
    try {
      for (const part of pair.split('=')) decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return `must be name=value pairs joined by &, URL-encoded as the viewer's link writes them: pair ${index + 1} "${shown}" holds a % that is not an encoded UTF-8 character`;
    }
  }
  // Read as the viewer reads it (names decoded: %76 is v).
  const pairs = new URLSearchParams(layout);
  const versions = pairs.getAll('v');
  if (versions.length !== 1) return `must give its version once, as v=${VIEWER_LAYOUT_VERSION} (the layout format this service knows)${versions.length ? `, not ${versions.length} times` : ''}`;
  const version = versions[0] as string;
  if (version !== String(VIEWER_LAYOUT_VERSION)) return `v=${version.slice(0, 20)} is not a layout version this service knows: it knows v=${VIEWER_LAYOUT_VERSION}`;
  for (const [index, scale] of pairs.getAll('y').entries()) {
    const problem = yScaleProblem(scale);
    if (problem) return `y scale ${index + 1} "${shortened(scale, 40)}" ${problem}`;
  }
  return null;
}

/**
 * What is wrong with a y scale's text (`<min>,<max>,<pane>`, the pane last: a channel's name may hold commas), read as
 * the viewer reads it, or null.
 */
function yScaleProblem(text: string): string | null {
  const [minText = '', maxText = '', ...pane] = text.split(',');
  const number = (t: string) => (t.trim() === '' ? Number.NaN : Number(t));
  const [min, max] = [number(minText), number(maxText)];
  if (!Number.isFinite(min) || !Number.isFinite(max) || !(max > min) || pane.join(',').length === 0) return 'is not <min>,<max>,<pane> with the min below the max';
  if (!(max - min > Math.max(Math.abs(min), Math.abs(max)) * VIEWER_Y_SCALE_MIN_SPAN)) {
    return `is too narrow for its size: the max must exceed the min by more than ${VIEWER_Y_SCALE_MIN_SPAN} of their size, or a plot has no number to step its ticks to`;
  }
  return null;
}
