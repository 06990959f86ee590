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

export function toAppError(
  err: FastifyError & { validation?: AjvLikeError[]; validationContext?: string },
): AppError | null {
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
      return Errors.validation('the URL is not validly percent-encoded', [
        { field: 'url', message: 'is not validly percent-encoded' },
      ]);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return Errors.validation('a path parameter is too long', [{ field: 'params', message: 'is too long' }]);
    case 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE':
      return Errors.validation('this method needs a Content-Type header', [
        { field: 'content-type', message: 'is required' },
      ]);
  }
  // the database refused the connection or dropped it mid-request: retry later, not an internal error
  if (isDatabaseUnavailable(err)) return Errors.unavailable('the database is unavailable; retry shortly');
  if (err.statusCode === 429) return Errors.rateLimited();
  // the multipart parser reports a broken body with plain errors
  if (
    /^(Unexpected end of (multipart|form) data|Malformed part header|Multipart: Boundary not found|Part terminated early)/i.test(
      err.message ?? '',
    )
  ) {
    return Errors.validation('malformed multipart body');
  }
  if (err instanceof SyntaxError && err.statusCode === 400) return Errors.validation('malformed JSON body');
  // any other refusal of the framework itself (its codes start with FST_) is the client's fault
  // when Fastify says so: answered in the envelope by its status, never as an internal error
  if (
    typeof err.code === 'string' &&
    err.code.startsWith('FST_') &&
    typeof err.statusCode === 'number' &&
    err.statusCode >= 400 &&
    err.statusCode < 500
  ) {
    if (err.statusCode === 404) return Errors.notFound();
    if (err.statusCode === 413) return Errors.tooLarge();
    if (err.statusCode === 415) return Errors.unsupportedMedia();
    return Errors.validation('bad request');
  }
  return null;
}

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  const body: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.details) body.details = err.details;
  if (err.extra) Object.assign(body, err.extra);
  if (err.code === 42901 && typeof err.extra?.retry_after === 'number')
    reply.header('Retry-After', String(err.extra.retry_after));
  if (err.code === 40501 && Array.isArray(err.extra?.allow))
    reply.header('Allow', (err.extra.allow as string[]).join(', '));
  // the rest of a body too large is not read: the connection closes after the answer
  if (err.status === 413) reply.header('Connection', 'close');
  if (err.status === 503 && !reply.hasHeader('retry-after')) reply.header('Retry-After', String(RETRY_AFTER_S));
  return reply.code(err.status).type('application/json; charset=utf-8').send(body);
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** a route's path as a regular expression over request paths (`:id` is one segment, `*` the rest) */
export function routePattern(url: string): RegExp {
  const segments = url.split('/').map((segment) =>
    segment === '*'
      ? '.*'
      : segment
          .split(/(:[A-Za-z0-9_]+)/)
          .map((part) => (part.startsWith(':') ? '[^/]+' : escapeRegExp(part)))
          .join(''),
  );
  return new RegExp(`^${segments.join('/')}/?$`);
}

/**
 * The methods each path of the app answers, gathered as routes are added: a request with another
 * method on a path that exists is 405 (40501) with `Allow`, not 404.
 */
class MethodTable {
  private readonly routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  add(url: string, method: string | string[]): void {
    let entry = this.routes.get(url);
    if (!entry) this.routes.set(url, (entry = { pattern: routePattern(url), methods: new Set() }));
    for (const m of Array.isArray(method) ? method : [method]) entry.methods.add(m.toUpperCase());
  }

  /** the methods some route answers on this path (empty: no such path) */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const { pattern, methods: own } of this.routes.values()) {
      if (pattern.test(path)) for (const m of own) methods.add(m);
    }
    return [...methods].sort();
  }
}

function installErrorHandler(app: FastifyInstance): void {
  const table = new MethodTable();
  app.addHook('onRoute', (route) => table.add(route.url, route.method));

  /** an unknown path is 404; a known path asked with a method it does not answer is 405 with Allow */
  const notFoundOrNotAllowed = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = request.url.split('?')[0]!;
    const allowed = table.allowed(path);
    if (allowed.length && !allowed.includes(request.method))
      return sendError(reply, Errors.methodNotAllowed(request.method, allowed));
    return sendError(reply, Errors.notFound(`route ${request.method} ${path}`));
  };

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = toAppError(error);
    // a request no route takes can still fail before the not-found handler runs (a QUERY without
    // Content-Type, an unreadable body): the route's absence comes first, as for any other request
    if (request.is404 && (known?.status === 400 || known?.status === 415)) return notFoundOrNotAllowed(request, reply);
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
    if (
      app.config.webClient &&
      request.method === 'GET' &&
      !path.startsWith('/api/') &&
      path !== '/api' &&
      !path.startsWith('/assets/')
    ) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return notFoundOrNotAllowed(request, reply);
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
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** One error handler and one not-found handler: every error answers the contract's envelope. */
export default fp(async (app) => installErrorHandler(app), { name: 'errors', fastify: '5.x' });
