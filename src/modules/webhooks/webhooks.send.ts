import { request as httpRequest, type Agent as HttpAgent } from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

/** Of an answer, at most this much is read; the rest is not waited for. */
const MAX_ANSWER_BYTES = 4096;
/** the connection must be open within this, whatever is left of the whole attempt's time */
const CONNECT_MS = 5_000;

export interface Sent {
  statusCode: number | null;
  error: string | null;
}

export interface Sender {
  post(url: string, headers: Record<string, string>, body: string): Promise<Sent>;
}

/**
 * Sends webhooks over connections that refuse private, loopback, link-local and reserved addresses
 * whatever the name resolves to (request-filtering-agent); with `allowLoopback`, loopback addresses
 * alone are let through. Each attempt has a connect limit and a limit on the whole exchange;
 * redirects are not followed (a 3xx is a failure) and at most a few KiB of an answer are read.
 */
export function createSender(opts: { allowLoopback: boolean; timeoutMs: number }): Sender {
  const filter = { allowIPAddressList: opts.allowLoopback ? ['127.0.0.0/8', '::1'] : [], keepAlive: false };
  const agents = { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };
  return {
    post(url, headers, body) {
      const target = new URL(url);
      const https = target.protocol === 'https:';
      if (!https && !(opts.allowLoopback && target.protocol === 'http:'))
        return Promise.resolve({ statusCode: null, error: 'only https:// endpoints are called' });
      return exchange(target, https ? agents.https : agents.http, headers, body, opts.timeoutMs);
    },
  };
}

function exchange(
  target: URL,
  agent: HttpAgent | HttpsAgent,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<Sent> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (out: Sent) => {
      if (done) return;
      done = true;
      clearTimeout(total);
      clearTimeout(connect);
      req.destroy();
      resolve(out);
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        const settle = () =>
          finish({
            statusCode: status,
            error:
              status >= 200 && status < 300
                ? null
                : status >= 300 && status < 400
                  ? `redirect to ${res.headers.location ?? 'nowhere'} not followed`
                  : `answered ${status}`,
          });
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) settle();
        });
        res.on('end', settle);
        res.on('error', settle);
      },
    );
    const total = setTimeout(() => finish({ statusCode: null, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    const connect = setTimeout(
      () => finish({ statusCode: null, error: 'could not connect in time' }),
      Math.min(CONNECT_MS, timeoutMs),
    );
    req.on('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connect);
      else socket.once('connect', () => clearTimeout(connect));
    });
    req.on('error', (err) => finish({ statusCode: null, error: err.message.slice(0, 300) }));
    req.end(body);
  });
}
