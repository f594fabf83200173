/**
 * The draws of one plot that may overlap (a pan, a zoom or a comparison change while an earlier read is still on its
 * way): the answers come back in any order, and only the draw started last may show its answer. An earlier one whose
 * answer comes later is dropped, so the plot never goes back to what the user has already moved away from.
 */
export class LatestDraw {
  private started = 0;

  /** A draw starts: the function says, once its answer is in, whether it is still the latest (else it draws nothing). */
  begin(): () => boolean {
    const mine = ++this.started;
    return () => mine === this.started;
  }

  /**
   * Runs a draw given whether it is still the latest (it checks once each answer is in, and draws nothing if not). A
   * draw dropped meanwhile fails silently: its error would stand beside the newer draw's plot.
   */
  async draw(action: (current: () => boolean) => Promise<void>): Promise<void> {
    const current = this.begin();
    try {
      await action(current);
    } catch (err) {
      if (current()) throw err;
    }
  }

  /** The plot was cleared (or its data closed): every draw under way is dropped when its answer comes. */
  drop(): void {
    this.started++;
  }
}
