import { evenEdges, histogram, scatter } from '../src';

describe('scatter', () => {
  test('when the pairs are at most maxPoints, then they come back as points, gaps dropped and a missing colour null', () => {
    const s = scatter([1, 2, NaN, 4], [10, 20, 30, NaN], [5, NaN, 7, 8], { maxPoints: 10, gridSize: 4 });
    expect(s).toEqual({ kind: 'points', count: 2, x: [1, 2], y: [10, 20], colour: [5, null] });
  });

  test('when the pairs are more than maxPoints, then a density grid over their extent counts them per cell with the mean colour', () => {
    // x and y over [0, 4], a 2 × 2 grid of cells 2 wide: (0,0) (1,1) (1.5,0.5) fall in cell (0,0), (3,1) in (1,0), (4,4) in (1,1) (the top edge is closed).
    const x = [0, 1, 1.5, 3, 4];
    const y = [0, 1, 0.5, 1, 4];
    const colour = [10, 20, 30, 40, NaN];
    const s = scatter(x, y, colour, { maxPoints: 4, gridSize: 2 });
    expect(s).toEqual({
      kind: 'density',
      count: 5,
      xAxis: { min: 0, max: 4, cells: 2 },
      yAxis: { min: 0, max: 4, cells: 2 },
      cells: [
        { x: 0, y: 0, count: 3, colour: 20 },
        { x: 1, y: 0, count: 1, colour: 40 },
        { x: 1, y: 1, count: 1, colour: null },
      ],
    });
  });

  test('when values fall on or beside a cell edge, then each is in the cell np.histogram2d(x, y, bins=n) puts it in (0.3 of [0, 1] in 10 cells is in cell 2, below the edge 0.30000000000000004)', () => {
    // np.histogram2d([0, 0.3, 0.6, 0.7, 1], same, bins=10) holds its pairs in cells 0, 2, 5, 6 and 9 of each axis
    // (a division alone put them in 0, 3, 6, 7 and 9).
    const v = [0, 0.3, 0.6, 0.7, 1];
    const s = scatter(v, v, undefined, { maxPoints: 1, gridSize: 10 });
    if (s.kind !== 'density') throw new Error('expected a density grid');
    expect(s.cells.map((c) => [c.x, c.y])).toEqual([0, 2, 5, 6, 9].map((k) => [k, k]));
  });

  test('when x spans more than the largest double (-1.7e308 to 1.7e308), then every pair lands in a cell and the cells add up to the count', () => {
    const x = Array.from({ length: 3100 }, (_, i) => (i < 1551 ? -1.7e308 : 1.7e308));
    const y = Array.from({ length: 3100 }, (_, i) => i % 200);
    const s = scatter(x, y, undefined, { maxPoints: 100, gridSize: 4 });
    if (s.kind !== 'density') throw new Error('expected a density grid');
    expect(s.count).toBe(3100);
    expect(s.cells.reduce((sum, c) => sum + c.count, 0)).toBe(3100);
    expect(s.cells.filter((c) => c.x === 0).reduce((sum, c) => sum + c.count, 0)).toBe(1551);
    expect(s.cells.filter((c) => c.x === 3).reduce((sum, c) => sum + c.count, 0)).toBe(1549);
  });
});

describe('histogram', () => {
  test('when 4 bins are asked over values 0..8, then the edges are 0, 2, 4, 6, 8 and the top value falls in the last bin', () => {
    const values = [0, 1, 2, 3, 4, 5, 6, 7, 8, NaN];
    const edges = evenEdges(values, 4);
    expect(edges).toEqual([0, 2, 4, 6, 8]);
    // [0,2): 0,1  [2,4): 2,3  [4,6): 4,5  [6,8]: 6,7,8
    expect(histogram(values, edges)).toEqual({ edges, counts: [2, 2, 2, 3], below: 0, above: 0, total: 9, signs: { negative: 0, zero: 1, positive: 8 } });
  });

  test('when bins are asked over a range whose step does not divide exactly, then the edges are numpy\'s to the bit (np.histogram_bin_edges), so a frame\'s counts agree', () => {
    // /usr/bin/python3 -c "import numpy as np; print(np.histogram_bin_edges([66.1, 238.1], bins=20).tolist())"
    const numpy = [
      66.1, 74.69999999999999, 83.3, 91.89999999999999, 100.5, 109.1, 117.69999999999999, 126.29999999999998, 134.89999999999998, 143.5, 152.1, 160.7, 169.29999999999998, 177.89999999999998, 186.5, 195.1, 203.7,
      212.29999999999998, 220.89999999999998, 229.5, 238.1,
    ];
    expect(evenEdges([66.1, 238.1], 20)).toEqual(numpy);
  });

  test('when explicit edges are given, then values outside them are counted below and above', () => {
    expect(histogram([-5, -1, 0, 0.5, 1, 9], [-1, 0, 1])).toEqual({ edges: [-1, 0, 1], counts: [1, 3], below: 1, above: 1, total: 6, signs: { negative: 2, zero: 1, positive: 3 } });
  });

  test('when a bin spans 0 (damper velocities in wide bins), then the signs still split the samples exactly: rebound below 0, bump above, whatever the edges', () => {
    const velocities = [-120, -30, -2, 0, 0, 3, 40, 150, NaN, -Infinity];
    const h = histogram(velocities, [-100, 100]);
    expect(h.counts).toEqual([6]);
    expect(h.signs).toEqual({ negative: 4, zero: 2, positive: 3 });
    expect(h.signs.negative + h.signs.zero + h.signs.positive).toBe(h.total);
  });

  test('when a channel holds one value, then its bins are centred on it; when it holds none, there are no bins', () => {
    expect(evenEdges([3, 3], 2)).toEqual([2.5, 3, 3.5]);
    expect(evenEdges([NaN], 2)).toEqual([]);
    expect(histogram([NaN, 1], [])).toEqual({ edges: [], counts: [], below: 0, above: 0, total: 1, signs: { negative: 0, zero: 0, positive: 1 } });
  });

  test('when the values span more than the largest double (-1.7e308 to 1.7e308), then the edges are finite and each value is counted in the bin it falls in', () => {
    const values = Array.from({ length: 3100 }, (_, i) => (i < 1551 ? -1.7e308 : 1.7e308));
    const edges = evenEdges(values, 4);
    const expected = [-1.7e308, -8.5e307, 0, 8.5e307, 1.7e308];
    expect(edges).toHaveLength(5);
    edges.forEach((e, k) => expect(Math.abs(e - (expected[k] as number))).toBeLessThanOrEqual(1e-12 * 1.7e308));
    expect([edges[0], edges[4]]).toEqual([-1.7e308, 1.7e308]);
    expect(histogram(values, edges)).toEqual({ edges, counts: [1551, 0, 0, 1549], below: 0, above: 0, total: 3100, signs: { negative: 1551, zero: 0, positive: 1549 } });
  });

  test('when a channel holds one value too large for ± 0.5 to move it (1e300 up to the largest double), then its bins still have distinct finite edges around it', () => {
    for (const v of [1e300, -1e300, Number.MAX_VALUE, -Number.MAX_VALUE]) {
      const edges = evenEdges([v, v, v], 4);
      expect(edges).toHaveLength(5);
      for (let k = 1; k < edges.length; k++) expect(edges[k]).toBeGreaterThan(edges[k - 1] as number);
      expect(edges.every(Number.isFinite)).toBe(true);
      const h = histogram([v, v, v], edges);
      expect(h.below + h.above).toBe(0);
      expect(h.counts.reduce((a, b) => a + b, 0)).toBe(3);
    }
  });

  test('when the values are a few units in the last place apart, then 4 bins over them still have strictly increasing edges holding every value', () => {
    const v = 1e300;
    const next = v + v * 2 ** -52;
    const edges = evenEdges([v, next], 4);
    for (let k = 1; k < edges.length; k++) expect(edges[k]).toBeGreaterThan(edges[k - 1] as number);
    expect(histogram([v, next], edges).counts.reduce((a, b) => a + b, 0)).toBe(2);
  });
});
