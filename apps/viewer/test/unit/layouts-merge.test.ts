import { mergeKept } from '../../src/layouts-panel';

describe('Update of a layout (mergeKept)', () => {
  const stored = {
    channels: ['Ground Speed', 'Brake Pres Front', 'Gear'],
    panesByUnit: true,
    yScales: [
      { min: 0, max: 100, pane: 'unit:bar' },
      { min: 0, max: 8, pane: 'unit:' },
    ],
  };

  test('when panes are by unit and every channel of a unit the dataset has was unticked, then that unit\'s y scale is not kept; a unit the dataset lacks keeps its scale', () => {
    // The dataset has Ground Speed (km/h) and Brake Pres Front (bar), not Gear (no unit); Brake Pres Front unticked.
    const { view, keptChannels, keptScales } = mergeKept(stored, { channels: ['Ground Speed'], panesByUnit: true }, new Set(['Ground Speed', 'Brake Pres Front']), ['unit:km/h'], new Set(['km/h', 'bar']));
    expect(view.channels).toEqual(['Ground Speed', 'Gear']);
    expect(keptChannels).toEqual(['Gear']);
    expect(keptScales).toEqual(['unit:']);
    expect(view.yScales).toEqual([{ min: 0, max: 8, pane: 'unit:' }]);
  });

  test('when panes are by channel now, then a unit\'s scale (not showable as such) is kept', () => {
    const { keptScales } = mergeKept(stored, { channels: ['Ground Speed'] }, new Set(['Ground Speed', 'Brake Pres Front']), ['Ground Speed'], new Set(['km/h', 'bar']));
    expect(keptScales).toEqual(['unit:bar', 'unit:']);
  });
});
