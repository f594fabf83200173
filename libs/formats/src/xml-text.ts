// The few XML elements the MDF readers take text from (a `<TX>` of an `##MD` block, MDF 3's `<HDcomment>`), found with
// indexOf in one pass: a lazy pattern such as /<TX>([\s\S]*?)<\/TX>/ looks for the closing tag from every opening one,
// quadratic on a block of unclosed tags (a file's comment is as long as its writer makes it).

/** The text between the first `<TX>` and the `</TX>` after it; undefined when there is none (as the lazy pattern). */
export function firstTxText(text: string): string | undefined {
  const open = text.indexOf('<TX>');
  if (open < 0) return undefined;
  const close = text.indexOf('</TX>', open + 4);
  return close < 0 ? undefined : text.slice(open + 4, close);
}

const HD_OPEN = '<HDcomment';
const HD_START = '<HDcomment>';
const HD_CLOSE = '</HDcomment>';

/**
 * Every `<HDcomment>...</HDcomment>` (to the first closing tag after it) and every `<HDcomment/>` (spaces allowed before
 * the slash) of `text`, left to right, replaced by `replace(element)`: what
 * text.replace(/<HDcomment>[\s\S]*?<\/HDcomment>|<HDcomment\s*\/>/g, replace) gives, in one pass.
 */
export function replaceHdComments(text: string, replace: (element: string) => string): string {
  let out = '';
  let done = 0;
  // The first closing tag at or after a position, found once and reused while it is ahead (Infinity: none left).
  let close = -1;
  for (let open = text.indexOf(HD_OPEN); open >= 0; open = text.indexOf(HD_OPEN, Math.max(open + 1, done))) {
    let end = -1;
    if (text.startsWith(HD_START, open)) {
      if (close < open + HD_START.length) {
        const found = text.indexOf(HD_CLOSE, open + HD_START.length);
        close = found < 0 ? Infinity : found;
      }
      if (close !== Infinity) end = close + HD_CLOSE.length;
    }
    if (end < 0) {
      let at = open + HD_OPEN.length;
      while (at < text.length && /\s/.test(text[at] as string)) at++;
      if (text.startsWith('/>', at)) end = at + 2;
    }
    if (end < 0) continue;
    out += text.slice(done, open) + replace(text.slice(open, end));
    done = end;
  }
  return out + text.slice(done);
}

/**
 * The `<e name="...">text</e>` elements of an MDF 4 header comment's common properties, in order, as
 * /<e\s+name="([^"]*)"[^>]*>([^<]*)<\/e>/g finds them, in one pass (the pattern ran from every `<e` to the end of a
 * comment with no `>`: 240 KB took 4.7 s).
 */
export function commonProperties(xml: string): [name: string, text: string][] {
  const out: [string, string][] = [];
  // The next '>' and '<' at or after a position, found once and reused while ahead (-1: none left).
  let gt = -2;
  let lt = -2;
  const next = (c: '>' | '<', cached: number, from: number): number => (cached === -1 || cached >= from ? cached : xml.indexOf(c, from));
  for (let at = xml.indexOf('<e'); at >= 0; at = xml.indexOf('<e', at + 1)) {
    let i = at + 2;
    if (!/\s/.test(xml[i] ?? '')) continue;
    while (i < xml.length && /\s/.test(xml[i] as string)) i++;
    if (!xml.startsWith('name="', i)) continue;
    const nameStart = i + 6;
    const nameEnd = xml.indexOf('"', nameStart);
    if (nameEnd < 0) break;
    gt = next('>', gt, nameEnd + 1);
    if (gt < 0) break;
    lt = next('<', lt, gt + 1);
    if (lt < 0) break;
    if (!xml.startsWith('</e>', lt)) continue;
    out.push([xml.slice(nameStart, nameEnd), xml.slice(gt + 1, lt)]);
    at = lt + 3;
  }
  return out;
}
