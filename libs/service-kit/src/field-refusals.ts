import { AppError, type FieldErrors } from './app-error';

/** The sentences a refusal's detail spells out; the rest are counted (every one is in `errors`). */
export const MAX_DETAIL_SENTENCES = 8;

/**
 * The faults of one request, collected so that one 400 names them all rather than the first hiding the rest: each
 * field with its short reasons in `errors`, and the detail every sentence joined with `; `.
 */
export class FieldRefusals {
  private readonly errors: FieldErrors = Object.create(null) as FieldErrors;
  private readonly sentences: string[] = [];

  refuse(field: string, reason: string, sentence: string = reason): undefined {
    (this.errors[field] ??= []).push(reason);
    this.sentences.push(sentence);
    return undefined;
  }

  /**
   * A check's own 400 joins the others: its field errors, and as sentences its detail (`detail`) or, when the detail
   * is only a heading ("The request body is not valid"), each reason (`reasons`). Any other error is thrown on.
   */
  take(error: unknown, sentences: 'detail' | 'reasons'): void {
    if (!(error instanceof AppError) || error.status !== 400 || !error.errors) throw error;
    if (sentences === 'reasons') return this.refuseEach(error.errors);
    for (const [field, reasons] of Object.entries(error.errors)) (this.errors[field] ??= []).push(...reasons);
    this.sentences.push(error.message);
  }

  /** Field errors whose reasons are whole sentences (`LapTime is a Double; 'x' is not a number`): each its own sentence. */
  refuseEach(errors: FieldErrors): void {
    for (const [field, reasons] of Object.entries(errors)) for (const reason of reasons) this.refuse(field, reason);
  }

  /**
   * One error naming everything refused: a 400 by default, or the `status` of what was refused, its detail after `lead`:
   * its first MAX_DETAIL_SENTENCES sentences and how many more (1,000 refused properties made a detail of each, and a
   * log line of it), `errors` naming every field.
   */
  throwIfAny(status = 400, lead = ''): void {
    if (!this.sentences.length) return;
    const more = this.sentences.length - MAX_DETAIL_SENTENCES;
    const shown = more > 0 ? [...this.sentences.slice(0, MAX_DETAIL_SENTENCES), `and ${more} more, each in errors`] : this.sentences;
    throw new AppError(status, lead + shown.join('; '), { errors: this.errors });
  }
}
