import { AppError, type FieldErrors } from './app-error';

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
    for (const [field, reasons] of Object.entries(error.errors)) {
      (this.errors[field] ??= []).push(...reasons);
      if (sentences === 'reasons') this.sentences.push(...reasons);
    }
    if (sentences === 'detail') this.sentences.push(error.message);
  }

  throwIfAny(): void {
    if (this.sentences.length) throw AppError.badRequest(this.sentences.join('; '), this.errors);
  }
}
