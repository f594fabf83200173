/** An expression that cannot be read or run: `position` is the 0-based character where it goes wrong, `reason` what. */
export class ExpressionError extends Error {
  constructor(
    readonly position: number,
    readonly reason: string,
  ) {
    super(`${reason} (at character ${position})`);
    this.name = 'ExpressionError';
  }
}
