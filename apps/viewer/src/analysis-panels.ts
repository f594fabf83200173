import type { HistogramJson, ScatterJson } from '@pitwall/contracts';
import { isDiscreteChannel } from '@pitwall/laps';
import { axisLabel, frictionCircles, histogramAxis, histogramBars, histogramCaption, integerEdges, lapStatsChannelsOf, lapStatsSummary, lapStatsTable, LAPSTATS_SHOWN_CELLS, parseBins, parseDistances, parseThresholds, scatterCaption, scatterColourBar, scatterMarks, shownLapStatsRows } from './analysis';
import { drawMarks, showColourBar } from './canvas-drawing';
import { COLOURS } from './colours';
import { el, row } from './dom';
import { ApiError } from './errors';
import { LatestDraw } from './latest';
import { sayProblems } from './link';
import type { Page } from './page';
import { notColouredBy, readWithoutRefused, refusedFields, refusedRead, sentence, type RefusedChannel } from './refused-channels';

/** The analysis panels of the open dataset: its lap statistics table, a scatter of two channels and a channel's histogram. */
export class AnalysisPanels {
  /** Each panel's reads under way: only the latest asked for draws (nor one of a dataset since closed). */
  private readonly draws = { lapStats: new LatestDraw(), scatter: new LatestDraw(), histogram: new LatestDraw() };

  constructor(private readonly page: Page) {}

  start(): void {
    el('lapstats-run').addEventListener('click', () => void this.page.run(() => this.draws.lapStats.draw((current) => this.showLapStats(current))));
    el('scatter-plot').addEventListener('click', () => void this.page.run(() => this.draws.scatter.draw((current) => this.plotScatter(current))));
    el('histogram-plot').addEventListener('click', () => void this.page.run(() => this.draws.histogram.draw((current) => this.plotHistogram(current))));
  }

  /** The dataset closed: its colour scale, lap statistics, scatter and histogram cleared with their captions. */
  clear(): void {
    for (const draws of Object.values(this.draws)) draws.drop();
    showColourBar('scatter', null);
    el('lapstats-table').replaceChildren();
    el('lapstats-summary').textContent = '';
    for (const id of ['scatter', 'histogram']) {
      const canvas = el<HTMLCanvasElement>(`${id}-canvas`);
      canvas.getContext('2d')?.clearRect(0, 0, canvas.width, canvas.height);
      canvas.hidden = true;
      for (const key of ['kind', 'xTicks', 'yTicks', 'circles']) delete canvas.dataset[key];
      el(`${id}-caption`).textContent = '';
    }
  }

  private async showLapStats(current: () => boolean): Promise<void> {
    const m = this.page.metadata;
    const dataset = this.page.dataset;
    if (!m || !dataset) return;
    const thresholds = parseThresholds(el<HTMLInputElement>('lapstats-thresholds').value);
    const ticked = this.page.ticked().map((c) => c.name);
    const channels = lapStatsChannelsOf(ticked, thresholds);
    const sectorStartDistances = parseDistances(el<HTMLInputElement>('lapstats-sectors').value);
    const perSector = el<HTMLInputElement>('lapstats-per-sector').checked;
    const api = this.page.requireApi();
    // A threshold goes with its channel: the service refuses one of a channel not asked for.
    const read = (asked: string[]) => api.lapStats(dataset, { channels: asked, thresholds: Object.fromEntries(Object.entries(thresholds).filter(([name]) => asked.includes(name))), ...(sectorStartDistances ? { sectorStartDistances } : {}), ...(perSector ? { perSector } : {}) });
    // A channel the service refuses on its own (a math channel whose constant or input this file lacks) does not stop
    // the table, as on the time plots: read again without it (and its threshold), and said. Every one refused: the
    // laps' times all the same.
    const got = await readWithoutRefused(channels, read, true);
    const answer = got.answer ?? (current() ? await read([]) : null);
    if (!current() || !answer) return;
    const table = lapStatsTable(answer);
    const shown = shownLapStatsRows(table);
    if ('tooWide' in shown) {
      el('lapstats-table').replaceChildren();
      el('lapstats-summary').textContent = lapStatsSummary(answer);
      this.page.status(`Lap statistics of ${answer.laps.length} lap(s), ${answer.channels.length} channel(s) are ${shown.columns} columns wide, more than the page shows (${LAPSTATS_SHOWN_CELLS.toLocaleString('en')} cells): tick fewer channels.`);
      return;
    }
    const { header } = table;
    const rows = shown.rows;
    const trs = rows.map(({ cells, testid, lapIndex, bestSectors }) => {
      const tr = row(cells);
      tr.dataset['testid'] = testid;
      for (const k of bestSectors ?? []) markBestSector(tr.cells[k]);
      if (lapIndex !== undefined && answer.bestLap?.lapIndex === lapIndex) tr.className = 'best';
      else if (testid.includes('-s')) tr.className = 'sector';
      return tr;
    });
    if (shown.hidden) {
      // Said where the rows are left out: before the whole file's row.
      const note = row([`${shown.hidden} more row(s) not shown: the page shows at most ${LAPSTATS_SHOWN_CELLS.toLocaleString('en')} cells (tick fewer channels, or leave per-sector figures off; the API answers them all)`]);
      (note.cells[0] as HTMLTableCellElement).colSpan = header.length;
      note.dataset['testid'] = 'lapstats-hidden';
      trs.splice(trs.length - 1, 0, note);
    }
    el('lapstats-table').replaceChildren(row(header, 'th'), ...trs);
    el('lapstats-summary').textContent = lapStatsSummary(answer);
    const unread = got.unread.map((u) => `"${u.name.slice(0, 80)}" (${u.why}${Object.hasOwn(thresholds, u.name) ? '; its threshold left out' : ''})`);
    const again = got.unread.every((u) => ticked.includes(u.name)) ? 'kept ticked, Lap statistics reads them again' : 'Lap statistics reads them again';
    this.page.status(`Lap statistics of ${answer.laps.length} lap(s), ${answer.channels.length} channel(s)${shown.hidden ? ` (${shown.hidden} row(s) not shown: too many for the page)` : ''}${unread.length ? `; could not read ${sayProblems(unread)}: ${again}` : ''}.`);
  }

  private analysisLap(): number | null {
    const v = el<HTMLSelectElement>('analysis-lap').value;
    return v === '' ? null : Number(v);
  }

  private async plotScatter(current: () => boolean): Promise<void> {
    const dataset = this.page.dataset;
    if (!dataset) return;
    const [x, y, colour] = ['scatter-x', 'scatter-y', 'scatter-colour'].map((id) => el<HTMLSelectElement>(id).value) as [string, string, string];
    const api = this.page.requireApi();
    const body = { x, y, lapIndex: this.analysisLap() };
    let answer: ScatterJson;
    // Its colour channel refused on its own (a math channel whose constant or input this file lacks): the scatter
    // drawn without colour, and said; its X or Y refused: said as the scatter's, by the channel and the service's reason.
    let uncoloured: RefusedChannel | undefined;
    try {
      answer = await api.scatter(dataset, { ...body, ...(colour ? { colour } : {}) });
    } catch (err) {
      const refused = refusedFields(err, [['x', x], ['y', y], ...(colour ? [['colour', colour] as const] : [])]);
      if (!refused || !(err instanceof ApiError)) throw err;
      if (refused.some((r) => r.field !== 'colour')) throw new ApiError(err.info, refusedRead('The scatter', err.status, refused, (field) => SCATTER_ROLES[field] ?? field));
      uncoloured = refused[0];
      if (!current()) return;
      answer = await api.scatter(dataset, body);
    }
    if (!current()) return;
    const canvas = el<HTMLCanvasElement>('scatter-canvas');
    const { marks, xRange, yRange } = scatterMarks(answer, canvas.width, canvas.height, COLOURS[0] as string);
    drawMarks(canvas, marks, xRange, yRange, axisLabel(answer.x), axisLabel(answer.y), false, false, frictionCircles(answer.x.unit, answer.y.unit, xRange, yRange));
    const what = answer.kind === 'points' ? `${answer.count} points` : `${answer.count} pairs in a ${answer.grid?.xAxis.cells}×${answer.grid?.yAxis.cells} density grid`;
    const notColoured = uncoloured ? notColouredBy(uncoloured) : '';
    el('scatter-caption').textContent = `${scatterCaption(answer)}${notColoured ? ` ${sentence(notColoured)}` : ''}`;
    showColourBar('scatter', scatterColourBar(answer));
    el('scatter-canvas').dataset['kind'] = answer.kind;
    this.page.status(`Scatter: ${what}${notColoured ? `; ${notColoured}` : ''}.`);
  }

  private async plotHistogram(current: () => boolean): Promise<void> {
    if (!this.page.dataset) return;
    const bins = parseBins(el<HTMLInputElement>('histogram-bins').value);
    const name = el<HTMLSelectElement>('histogram-channel').value;
    const api = this.page.requireApi();
    let answer: HistogramJson;
    try {
      answer = await api.histogram(this.page.dataset, { channel: name, lapIndex: this.analysisLap(), ...(bins ? { bins } : {}) });
    } catch (err) {
      // Its channel refused on its own (a math channel whose constant or input this file lacks): said as the histogram's.
      const refused = refusedFields(err, [['channel', name]]);
      throw refused && err instanceof ApiError ? new ApiError(err.info, refusedRead('The histogram', err.status, refused, () => 'channel')) : err;
    }
    // A discrete channel of whole values (gear): read again with one bin per value, centred on it.
    const channel = this.page.metadata?.channels.find((c) => c.name === name);
    const whole = channel && isDiscreteChannel(channel) ? integerEdges(answer.edges[0] ?? Number.NaN, answer.edges[answer.edges.length - 1] ?? Number.NaN) : null;
    if (whole && current()) answer = await api.histogram(this.page.dataset, { channel: name, lapIndex: this.analysisLap(), edges: whole });
    if (!current()) return;
    const canvas = el<HTMLCanvasElement>('histogram-canvas');
    const edges = answer.edges;
    // The vertical axis runs from 0 to a round tick above the tallest bar (the bars scaled on it): whole numbers of
    // samples, or their share.
    const axis = histogramAxis(answer, el<HTMLSelectElement>('histogram-y').value === 'percent');
    drawMarks(canvas, histogramBars(answer, canvas.width, canvas.height, COLOURS[1] as string, axis), [edges[0] ?? 0, edges[edges.length - 1] ?? 1], axis.range, axisLabel(answer.channel), axis.label, axis.whole, whole !== null);
    el('histogram-caption').textContent = histogramCaption(answer);
    this.page.status(`Histogram of ${answer.channel.name}.`);
  }
}

/** The scatter's channels as its refusal names them, by the field of the read. */
const SCATTER_ROLES: Record<string, string> = { x: 'X channel', y: 'Y channel', colour: 'colour channel' };

/**
 * A sector's best time, marked beyond its colour: a green edge and a ★ to the eye (in the best lap's row, all bold,
 * the bold alone said nothing), "best" to a screen reader, and a tooltip.
 */
function markBestSector(cell: HTMLTableCellElement | undefined): void {
  if (!cell) return;
  cell.classList.add('best-sector');
  cell.title = 'Best time of this sector';
  const star = document.createElement('span');
  star.className = 'best-mark';
  star.setAttribute('aria-hidden', 'true');
  star.textContent = ' ★';
  const said = document.createElement('span');
  said.className = 'visually-hidden';
  said.textContent = ' (best)';
  cell.append(star, said);
}
