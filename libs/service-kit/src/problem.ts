import { AppError } from './app-error';

/** RFC 9457 problem details, as wire.md §2 shapes them. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** The request's URL or path; empty when it could not be read (a request the parser refused before its target). */
  instance: string;
  traceId: string;
  errors?: Record<string, string[]>;
  /** Extension members a problem type defines (e.g. `commandId`). */
  [extension: string]: unknown;
}

export function toProblem(err: AppError, instance: string, traceId: string): ProblemDetails {
  const detail = err.catastrophic ? 'An unexpected error occurred' : err.message;
  const problem: ProblemDetails = { ...err.extensions, type: err.type ?? 'about:blank', title: err.title, status: err.status, detail, instance, traceId };
  if (err.errors && Object.keys(err.errors).length > 0) problem.errors = err.errors;
  return problem;
}
