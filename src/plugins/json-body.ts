import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Errors } from '../lib/errors.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../lib/text.ts';

/** the `charset` parameter of a Content-Type header, lower-cased; null when there is none */
export function charsetOf(contentType: string | undefined): string | null {
  const m = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '');
  return m ? m[1]!.toLowerCase() : null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON bodies: UTF-8 only (a body declared in another charset is 41501, never misread as UTF-8),
 * and nested at most MAX_JSON_DEPTH levels (deeper is 40001, refused by a linear scan before
 * anything is built or walked). Parsing itself is Fastify's (prototype poisoning refused).
 */
export default fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer' },
      (request: FastifyRequest, raw: string | Buffer, done) => {
        const charset = charsetOf(request.headers['content-type']);
        if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
          done(
            Errors.unsupportedMedia(`JSON bodies must be UTF-8, not ${charset.slice(0, 40) || 'an empty charset'}`),
            undefined,
          );
          return;
        }
        // Decoded strictly: a byte sequence that is not UTF-8 is refused, never stored as U+FFFD.
        let body: string;
        try {
          body = typeof raw === 'string' ? raw : strictUtf8.decode(raw);
        } catch {
          done(
            Errors.validation('body is not valid UTF-8', [{ field: 'body', message: 'is not valid UTF-8' }]),
            undefined,
          );
          return;
        }
        if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) {
          done(
            Errors.validation(`body nests deeper than ${MAX_JSON_DEPTH} levels`, [
              { field: 'body', message: `nests deeper than ${MAX_JSON_DEPTH} levels` },
            ]),
            undefined,
          );
          return;
        }
        parseJson(request, body, done);
      },
    );
  },
  { name: 'json-body', fastify: '5.x', dependencies: ['errors'] },
);
