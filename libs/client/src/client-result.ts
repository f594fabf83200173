/** The wrappers' result convention: a failed call reports success false, a message and the HTTP status. */
export interface ClientResult<T> {
  success: boolean;
  message: string;
  statusCode: number;
  returnValue: T | null;
  /** The problem+json body of a failed call, when there was one. */
  problem?: { title?: string; detail?: string; errors?: Record<string, string[]>; traceId?: string };
}
