import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Socket } from 'node:net';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError, Errors, RETRY_AFTER_S, type ErrorDetail } from '../lib/errors.ts';

interface AjvLikeError {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

function detailsOf(errors: AjvLikeError[], context: string | undefined): ErrorDetail[] {
  const seen = new Set<string>();
  const out: ErrorDetail[] = [];
  for (const e of errors) {
    let field = (e.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    if (e.keyword === 'required' && typeof e.params?.missingProperty === 'string') {
      field = field ? `${field}.${e.params.missingProperty}` : e.params.missingProperty;
    }
    if (e.keyword === 'additionalProperties' && typeof e.params?.additionalProperty === 'string') {
      field = field ? `${field}.${e.params.additionalProperty}` : e.params.additionalProperty;
    }
    if (!field) field = context === 'querystring' ? 'query' : (context ?? 'body');
    const message = e.keyword === 'required' ? 'is required' : (e.message ?? 'is invalid');
    const key = `${field}:${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field, message });
  }
  return out;
}

export function toAppError(err: FastifyError & { validation?: AjvLikeError[]; validationContext?: string }): AppError | null {
  if (err instanceof AppError) return err;
  if (err.validation) {
    const details = detailsOf(err.validation, err.validationContext);
    const first = details[0];
    return Errors.validation(first ? `${first.field} ${first.message}` : 'validation failed', details);
  }
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return Errors.validation('malformed JSON body', [{ field: 'body', message: 'is not valid JSON' }]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return Errors.tooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return Errors.unsupportedMedia();
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return Errors.validation('invalid Content-Length');
    case 'FST_ERR_VALIDATION':
      return Errors.validation(err.message);
    case 'FST_ERR_BAD_URL':
      return Errors.validation('the URL is not validly percent-encoded', [{ field: 'url', message: 'is not validly percent-encoded' }]);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return Errors.validation('a path parameter is too long', [{ field: 'params', message: 'is too long' }]);
  }
  // the database refused the connection or dropped it mid-request: retry later, not an internal error
  if (isDatabaseUnavailable(err)) return Errors.unavailable('the database is unavailable; retry shortly');
  if (err.statusCode === 429) return Errors.rateLimited();
  // the multipart parser reports a broken body with plain errors
  if (/^(Unexpected end of (multipart|form) data|Malformed part header|Multipart: Boundary not found|Part terminated early)/i.test(err.message ?? '')) {
    return Errors.validation('malformed multipart body');
  }
  if (err instanceof SyntaxError && err.statusCode === 400) return Errors.validation('malformed JSON body');
  return null;
}

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  const body: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.details) body.details = err.details;
  if (err.extra) Object.assign(body, err.extra);
  if (err.code === 42901 && typeof err.extra?.retry_after === 'number') reply.header('Retry-After', String(err.extra.retry_after));
  // the rest of a body too large is not read: the connection closes after the answer
  if (err.status === 413) reply.header('Connection', 'close');
  if (err.status === 503 && !reply.hasHeader('retry-after')) reply.header('Retry-After', String(RETRY_AFTER_S));
  return reply.code(err.status).type('application/json; charset=utf-8').send(body);
}

function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = toAppError(error);
    if (known) {
      // a dependency that is down or not configured is an expected refusal: a warning without a
      // stack trace; only a real internal error is logged as one
      if (known.status === 503) request.log.warn({ code: known.code, reason: error.message }, known.message);
      else if (known.status >= 500) request.log.error({ err: error }, known.message);
      return sendError(reply, known);
    }
    // An unexpected error: log everything with the request id, tell the client nothing internal.
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, Errors.internal());
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    // the web client routes on its own: unknown pages outside /api get its index page (a missing
    // build file under /assets/ stays a 404, so that a stale page fails loudly, not with HTML)
    if (app.config.webClient && request.method === 'GET' && !path.startsWith('/api/') && path !== '/api' && !path.startsWith('/assets/')) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return sendError(reply, Errors.notFound(`route ${request.method} ${request.url.split('?')[0]}`));
  });
}

/**
 * Errors Fastify answers before any route runs (a URL that is not valid percent-encoding, a path
 * parameter over the router's length limit), in the contract's envelope. Passed to Fastify as
 * `frameworkErrors`.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  sendError(reply, toAppError(error) ?? Errors.validation('bad request'));
}

/**
 * Errors of the HTTP parser, before there is a request (headers too large, a request not received
 * in time, a malformed request line), written straight to the socket in the contract's envelope.
 * Passed to Fastify as `clientErrorHandler`.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 41301, 'request headers too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 40001, 'the request was not received in time']
        : [400, 'Bad Request', 40001, 'malformed HTTP request'];
  const body = JSON.stringify({ code, message });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }
  socket.destroy();
}

/** One error handler and one not-found handler: every error answers the contract's envelope. */
export default fp(async (app) => installErrorHandler(app), { name: 'errors', fastify: '5.x' });
