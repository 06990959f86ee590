import { AppError } from '../../lib/errors.ts';

/*
 * Work on an upload stops when its client goes away: the route turns the request's close into an
 * AbortSignal (plugins/uploads.ts clientGone) and every reader and writer of an import checks it
 * between pieces of work. The error it throws ends the request's transaction, so nothing is kept.
 */

/** The upload's request ended before the answer: the work stops. */
export function uploadAbandoned(): AppError {
  return new AppError(400, 40001, 'the upload was abandoned by the client');
}

export function checkSignal(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw uploadAbandoned();
}
