import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for WeChat's jscode2session over real HTTP. Codes: `ok-<openid>` succeeds,
 * `busy` answers errcode -1, `boom` answers HTTP 500, anything else is refused (errcode 40029).
 */
export async function startFakeWechat(): Promise<{ base: string; calls: URLSearchParams[]; close(): Promise<void> }> {
  const calls: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/sns/jscode2session') {
      res.writeHead(404).end();
      return;
    }
    calls.push(url.searchParams);
    const code = url.searchParams.get('js_code') ?? '';
    res.setHeader('content-type', 'application/json');
    if (code === 'boom') return void res.writeHead(500).end('oops');
    if (code === 'busy') return void res.end(JSON.stringify({ errcode: -1, errmsg: 'system busy' }));
    if (code.startsWith('ok-')) return void res.end(JSON.stringify({ openid: code.slice(3), session_key: 'sk' }));
    res.end(JSON.stringify({ errcode: 40029, errmsg: 'invalid code' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
