// The viewer page's composition root: each panel built with the ones it drives, wired, and started.
import 'uplot/dist/uPlot.min.css';
import './viewer.css';
import { AnalysisPanels } from './analysis-panels';
import { LapComparison } from './comparison';
import { DatasetPanel } from './dataset-panel';
import { startSkipLinks } from './dom';
import { LayoutsPanel } from './layouts-panel';
import { MathChannels } from './math-channels';
import { Page, stickUnderMessages } from './page';
import { PageLink } from './page-link';
import { Pickers } from './pickers';
import { PlotKeys } from './plot-keys';
import { Session } from './session';
import { TimePlots } from './time-plots';
import { TrackMapPanel } from './track-map-panel';

// An action that succeeds writes the link; a key the service refuses signs the page out.
const page = new Page({ succeeded: () => link.writeLink(), keyRefused: () => session.forgetKey() });
// The plot keys go to the group of plots in use: the time plots, the lap overlay or the delta.
const keys = new PlotKeys();
// The track map follows the time plots' cursor and scope; its hover moves their cursor.
const plots = new TimePlots(page, { linkChanged: () => link.writeLink(), cursorMoved: (x) => map.followCursor(x), plotted: () => map.followPlots() }, keys);
const comparison = new LapComparison(page, keys);
const map = new TrackMapPanel(page, plots);
const analysis = new AnalysisPanels(page);
const datasetPanel = new DatasetPanel(page, { plots, comparison, map, analysis });
// Refresh lists the account's math channels and saved layouts again too (some may have been saved elsewhere since).
const pickers = new Pickers(page, datasetPanel, async () => {
  await Promise.all([math.listMathChannels(), layouts.listAgain()]);
});
const math = new MathChannels(page, datasetPanel);
const link = new PageLink(page, pickers, datasetPanel, plots);
// Saved layouts: the link's view part, set on the open dataset and plotted.
const layouts = new LayoutsPanel(page, link, plots, () => math.names);
const session = new Session(page, pickers, math, link, datasetPanel, layouts);

for (const part of [session, pickers, datasetPanel, math, plots, comparison, analysis, map, keys, layouts]) part.start();
startSkipLinks();
stickUnderMessages();
link.start();
session.resume();
