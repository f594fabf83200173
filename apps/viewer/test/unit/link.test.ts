import { VIEWER_LAYOUT_VERSION } from '@pitwall/contracts';
import { decodeLayout, decodeLink, encodeLayout, encodeLink, LAYOUT_VERSION, LINK_MAX_CHANNELS, LINK_MAX_LENGTH, sayNames, sayProblems, type ViewerLayout, type ViewerLink } from '../../src/link';

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the viewer link (the fragment of its address)', () => {
  it('when a full link is written and read back, then every part comes back, names with spaces, plus signs, colons and & included', () => {
    const link: ViewerLink = {
      championship: ID(1),
      event: ID(2),
      session: ID(3),
      car: ID(4),
      run: ID(5),
      dataset: { entityType: 'SessionCarDatas', entityId: ID(6), group: 'Data: main & spare' },
      channels: ['Ground Speed', 'G+ Lat', 'a&b=c', 'Größe #1'],
      scope: { kind: 'lap', lapIndex: 2 },
      view: { start: 1234.5678901234, duration: 0.25 },
      panesByUnit: true,
      lapTimeAxis: true,
      yScales: [
        { pane: 'Ground Speed', min: 0, max: 400 },
        { pane: 'unit:km/h, front', min: -12.5, max: 1e-3 },
      ],
    };
    const fragment = encodeLink(link);
    expect(fragment).toContain('y=0%2C400%2CGround%20Speed');
    expect(fragment).toContain('lap=3');
    expect(fragment).toContain('ch=Ground%20Speed');
    expect(fragment).not.toContain('+');
    expect(decodeLink(`#${fragment}`)).toEqual({ link, problems: [] });
    const window: ViewerLink = { run: ID(5), dataset: { entityType: 'RunSheets', entityId: ID(5), group: 'DataFile' }, scope: { kind: 'window', start: -3.5, duration: 10 } };
    expect(decodeLink(encodeLink(window))).toEqual({ link: window, problems: [] });
  });

  it('when a link is empty, then nothing is picked and nothing is said', () => {
    expect(decodeLink('')).toEqual({ link: {}, problems: [] });
    expect(decodeLink('#')).toEqual({ link: {}, problems: [] });
  });

  it('when parts of a link are damaged or unknown, then the rest is used and each damaged part is said', () => {
    const { link, problems } = decodeLink(`run=${ID(5)}&event=not-an-id&dataset=run:${ID(5)}&lap=0&view=1,-2&ch=&zoom=9`);
    expect(link).toEqual({ run: ID(5) });
    expect(problems).toEqual([
      '"zoom" is not part of a viewer link',
      'event is not an id',
      'dataset is not <run|car>:<id>:<group>',
      'a channel name of the link is empty or longer than 1000 characters',
      'lap is not a lap number (1 is the first lap)',
      'view is not <start>,<length> in seconds',
    ]);
    expect(decodeLink('panes=channel').problems).toEqual(['panes is not "unit"']);
    expect(decodeLink('from=3').problems).toEqual(['from and length are not a window (seconds, a length over 0)']);
    expect(decodeLink('from=3&length=0').problems).toEqual(['from and length are not a window (seconds, a length over 0)']);
  });

  it('when a y scale of a link is not a range below its pane, then it is said once and the others are used', () => {
    const { link, problems } = decodeLink('y=5,1,A&y=,5,B&y=0,x,C&y=0,1,&y=0,1&y=-1,2.5,D&y=0,10,D');
    // The last scale of a pane wins.
    expect(link).toEqual({ yScales: [{ pane: 'D', min: 0, max: 10 }] });
    expect(problems).toEqual(['a y scale is not <min>,<max>,<pane> with the min below the max']);
    const many = Array.from({ length: LINK_MAX_CHANNELS + 1 }, (_, i) => `y=0,1,p${i}`).join('&');
    expect(decodeLink(many).link.yScales).toHaveLength(LINK_MAX_CHANNELS);
    expect(decodeLink(many).problems).toEqual([`the link sets ${LINK_MAX_CHANNELS + 1} y scales: the first ${LINK_MAX_CHANNELS} are used`]);
  });

  it('when a link names too many channels or is too long, then it is bounded: the first channels are ticked, an overlong link is refused whole', () => {
    const many = Array.from({ length: LINK_MAX_CHANNELS + 5 }, (_, i) => `ch=c${i}`).join('&');
    const { link, problems } = decodeLink(many);
    expect(link.channels).toHaveLength(LINK_MAX_CHANNELS);
    expect(link.channels?.[0]).toBe('c0');
    expect(problems).toEqual([`the link names ${LINK_MAX_CHANNELS + 5} channels: the first ${LINK_MAX_CHANNELS} are ticked`]);
    expect(decodeLink(`ch=${'x'.repeat(LINK_MAX_LENGTH)}`)).toEqual({ link: {}, problems: [`the link is longer than ${LINK_MAX_LENGTH} characters`] });
  });

  it('when ids are written in capitals or a channel is named twice, then ids compare in lower case and the channel is ticked once', () => {
    expect(decodeLink(`run=${ID(5).toUpperCase()}&ch=A&ch=A`).link).toEqual({ run: ID(5), channels: ['A'] });
  });

  it('when what is on screen would make a link longer than one is read back, then the last channels are left out of it', () => {
    const long = Array.from({ length: 40 }, (_, i) => `${'n'.repeat(990)}${i}`);
    const fragment = encodeLink({ run: ID(5), channels: long });
    expect(fragment.length).toBeLessThanOrEqual(LINK_MAX_LENGTH);
    const { link, problems } = decodeLink(fragment);
    expect(problems).toEqual([]);
    expect(link.channels).toEqual(long.slice(0, link.channels?.length));
    expect(link.channels?.length).toBeGreaterThan(20);
    expect(decodeLink(encodeLink({ channels: Array.from({ length: 100 }, (_, i) => `c${i}`) })).link.channels).toHaveLength(LINK_MAX_CHANNELS);
    // The y scales of long names go first, then channels.
    const scaled = encodeLink({ run: ID(5), channels: long.slice(0, 20), yScales: long.map((pane) => ({ pane, min: 0, max: 1 })) });
    expect(scaled.length).toBeLessThanOrEqual(LINK_MAX_LENGTH);
    const read = decodeLink(scaled);
    expect(read.problems).toEqual([]);
    expect(read.link.channels).toEqual(long.slice(0, 20));
    expect(read.link.yScales?.length).toBeGreaterThan(5);
    expect(decodeLink(encodeLink({ yScales: Array.from({ length: 100 }, (_, i) => ({ pane: `c${i}`, min: 0, max: 1 })) })).link.yScales).toHaveLength(LINK_MAX_CHANNELS);
  });
});

describe('a saved layout (the view part of a link, with its version)', () => {
  it('when a layout is written and read back, then its channels in order, panes, time axis and y scales come back, after its version', () => {
    const layout: ViewerLayout = {
      channels: ['Ground Speed', 'G+ Lat', 'a&b=c', 'Größe #1'],
      panesByUnit: true,
      lapTimeAxis: true,
      yScales: [{ pane: 'unit:km/h', min: 0, max: 400 }],
    };
    const text = encodeLayout(layout);
    expect(text).toBe('v=1&ch=Ground%20Speed&ch=G%2B%20Lat&ch=a%26b%3Dc&ch=Gr%C3%B6%C3%9Fe%20%231&panes=unit&axis=lap&y=0%2C400%2Cunit%3Akm%2Fh');
    expect(decodeLayout(text)).toEqual({ layout, problems: [] });
    expect(encodeLayout({})).toBe('v=1');
    expect(decodeLayout('v=1')).toEqual({ layout: {}, problems: [] });
  });

  it('when the page and the service read a layout version, then it is the same one', () => {
    expect(LAYOUT_VERSION).toBe(VIEWER_LAYOUT_VERSION);
  });

  it('when a layout holds parts of a link that are no layout\'s, or of neither, then the rest is read and each of them said', () => {
    const { layout, problems } = decodeLayout(`v=1&run=${ID(5)}&ch=Ground%20Speed&lap=3&colour=red&panes=unit&y=5,1,Ground%20Speed`);
    expect(layout).toEqual({ channels: ['Ground Speed'], panesByUnit: true });
    expect(problems).toEqual([
      '"run" is part of a link, not of a layout',
      '"lap" is part of a link, not of a layout',
      '"colour" is not part of a layout',
      'a y scale is not <min>,<max>,<pane> with the min below the max',
    ]);
  });

  it('when a link or a layout sets a y scale too narrow for its size to be plotted, then it is left out (the pane auto-scaled) and said, the others kept', () => {
    const narrow = 'y=10000000000000000%2C10000000000000004%2CGround%20Speed&y=1%2C1.000000000000001%2CGear&y=0%2C400%2Cunit%3Akm%2Fh';
    const said = 'the y scale of "Ground Speed" and 1 more is too narrow for its size to be plotted (the max must exceed the min by more than 1e-12 of their size): auto-scaled';
    expect(decodeLayout(`v=1&ch=Ground%20Speed&${narrow}`)).toEqual({ layout: { channels: ['Ground Speed'], yScales: [{ pane: 'unit:km/h', min: 0, max: 400 }] }, problems: [said] });
    expect(decodeLink(`ch=Ground%20Speed&${narrow}`)).toEqual({ link: { channels: ['Ground Speed'], yScales: [{ pane: 'unit:km/h', min: 0, max: 400 }] }, problems: [said] });
  });

  it('when a link or a layout holds thousands of parts it does not know, then the status says the first five and counts the others', () => {
    const unknown = Array.from({ length: 4000 }, (_, i) => `u${i}=1`).join('&');
    const { problems } = decodeLayout(`v=1&ch=Ground%20Speed&${unknown}`);
    expect(problems).toHaveLength(4000);
    const said = sayProblems(problems);
    expect(said).toBe('"u0" is not part of a layout; "u1" is not part of a layout; "u2" is not part of a layout; "u3" is not part of a layout; "u4" is not part of a layout; and 3995 more');
    expect(sayProblems(['a', 'b'])).toBe('a; b');
    expect(sayNames(Array.from({ length: 70 }, (_, i) => `${'Channel '.repeat(20)}${i}`))).toBe(`${Array.from({ length: 5 }, () => `"${'Channel '.repeat(10)}"`).join(', ')} and 65 more`);
    expect(sayNames(['Brake Pres Rear'])).toBe('"Brake Pres Rear"');
  });

  it('when a layout gives no version or another one, or is too long, then nothing of it is read, and why is said', () => {
    expect(decodeLayout('ch=Ground%20Speed')).toEqual({ layout: null, problems: ['it gives no version, and this page reads layouts of version 1'] });
    expect(decodeLayout('v=2&ch=Ground%20Speed')).toEqual({ layout: null, problems: ['it is of version 2, and this page reads layouts of version 1'] });
    expect(decodeLayout(`v=1&ch=${'x'.repeat(LINK_MAX_LENGTH)}`)).toEqual({ layout: null, problems: [`the layout is longer than ${LINK_MAX_LENGTH} characters`] });
  });

  it('when a view is longer than a link is read back, then its layout keeps within it, its version included, leaving out the last y scales and channels', () => {
    const channels = Array.from({ length: 40 }, (_, i) => `${'c'.repeat(900)}${i}`);
    const text = encodeLayout({ channels, yScales: channels.map((pane) => ({ pane, min: 0, max: 1 })) });
    expect(text.length).toBeLessThanOrEqual(LINK_MAX_LENGTH);
    const { layout, problems } = decodeLayout(text);
    expect(problems).toEqual([]);
    expect(layout?.channels?.length).toBeGreaterThan(30);
    expect(layout?.channels).toEqual(channels.slice(0, layout?.channels?.length));
    expect(layout?.yScales).toBeUndefined();
  });
});
