import { seededRandom } from '@pitwall/random';
import { commonProperties, firstTxText, replaceHdComments } from '../src/xml-text';

// The MDF readers' comment text, found in one pass; the lazy patterns they used before (quadratic on unclosed tags)
// are the reference of what they mean, on small random texts.
const referenceTx = (text: string) => /<TX>([\s\S]*?)<\/TX>/.exec(text)?.[1];
const referenceHd = (text: string, replace: (element: string) => string) => text.replace(/<HDcomment>[\s\S]*?<\/HDcomment>|<HDcomment\s*\/>/g, replace);
const referenceE = (text: string) => [...text.matchAll(/<e\s+name="([^"]*)"[^>]*>([^<]*)<\/e>/g)].map((m) => [m[1], m[2]]);

describe('the MDF comments\' XML text', () => {
  test('when random texts of the tags, broken tags and stray characters are read, then firstTxText and replaceHdComments give the patterns\' answers', () => {
    const random = seededRandom(39);
    const pieces = ['<TX>', '</TX>', '<TX', 'TX>', '<HDcomment>', '</HDcomment>', '<HDcomment/>', '<HDcomment  />', '<HDcomment \n/>', '<HDcomment', '<HDcommentX>', '/>', 'a', ' ', '<', '>', '&lt;'];
    const mark = (element: string) => `[${element.length}]`;
    for (let round = 0; round < 5000; round++) {
      const text = Array.from({ length: Math.floor(random() * 12) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      expect({ text, tx: firstTxText(text) }).toEqual({ text, tx: referenceTx(text) });
      expect({ text, hd: replaceHdComments(text, mark) }).toEqual({ text, hd: referenceHd(text, mark) });
    }
  });

  test('when random texts of common properties and broken ones are read, then commonProperties gives the pattern\'s elements', () => {
    const random = seededRandom(4);
    const pieces = ['<e name="driver">', '<e  name="Event" x="1">', '<e\tname="run"/>', '<e name="', '<e', '<e ', '<ee name="x">', 'name="', '"', '>', '<', '</e>', '</e', 'Ann', ' ', '\u00a0', '<e name="a">b</e>'];
    for (let round = 0; round < 5000; round++) {
      const text = Array.from({ length: Math.floor(random() * 12) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      expect({ text, found: commonProperties(text) }).toEqual({ text, found: referenceE(text) });
    }
  });

  test('when a comment is megabytes of unclosed tags, then it is read in one pass (the patterns took minutes: a hang fails the test)', () => {
    expect(firstTxText('<TX>'.repeat(1_000_000))).toBeUndefined();
    expect(replaceHdComments('<HDcomment>'.repeat(400_000), () => 'x')).toBe('<HDcomment>'.repeat(400_000));
    expect(replaceHdComments(`${'<HDcomment>'.repeat(300_000)}</HDcomment>`, (e) => String(e.length))).toBe(String(300_000 * 11 + 12));
    expect(replaceHdComments(`${'<HDcomment   '.repeat(300_000)}`, () => 'x')).toBe('<HDcomment   '.repeat(300_000));
    expect(commonProperties('<e name="x" '.repeat(400_000))).toEqual([]);
    expect(commonProperties(`${'<e name="x">'.repeat(300_000)}`)).toEqual([]);
    // Only the last element is closed: `...<e name="x">y</e>`; with a '<' more before its '</e>', none is.
    expect(commonProperties(`${'<e name="x">y<'.repeat(300_000)}/e>`)).toEqual([['x', 'y']]);
    expect(commonProperties(`${'<e name="x">y<'.repeat(300_000)}</e>`)).toEqual([]);
  });
});
