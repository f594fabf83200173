import { seededRandom } from '@pitwall/random';
import { firstTxText, replaceHdComments } from '../src/xml-text';

// The MDF readers' comment text, found in one pass; the lazy patterns they used before (quadratic on unclosed tags)
// are the reference of what they mean, on small random texts.
const referenceTx = (text: string) => /<TX>([\s\S]*?)<\/TX>/.exec(text)?.[1];
const referenceHd = (text: string, replace: (element: string) => string) => text.replace(/<HDcomment>[\s\S]*?<\/HDcomment>|<HDcomment\s*\/>/g, replace);

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

  test('when a comment is megabytes of unclosed tags, then it is read in one pass (the patterns took minutes: a hang fails the test)', () => {
    expect(firstTxText('<TX>'.repeat(1_000_000))).toBeUndefined();
    expect(replaceHdComments('<HDcomment>'.repeat(400_000), () => 'x')).toBe('<HDcomment>'.repeat(400_000));
    expect(replaceHdComments(`${'<HDcomment>'.repeat(300_000)}</HDcomment>`, (e) => String(e.length))).toBe(String(300_000 * 11 + 12));
    expect(replaceHdComments(`${'<HDcomment   '.repeat(300_000)}`, () => 'x')).toBe('<HDcomment   '.repeat(300_000));
  });
});
