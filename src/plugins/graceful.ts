import { readFileSync } from 'node:fs';
import { Server } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** how long no new request may have started before the remaining idle connections are closed */
const QUIET_MS = 500;
/** how long no connection may have come before the listening socket closes */
const LISTEN_QUIET_MS = 150;

/**
 * Connections waiting in the kernel's accept queue of the listening socket on this port (Linux:
 * the rx_queue of a LISTEN entry in /proc/net/tcp); null when that cannot be known.
 */
export function acceptQueueLength(port: number): number | null {
  let found: number | null = null;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // state 0A is LISTEN; local address is ADDR:PORT in hex; queues are TX:RX in hex
      if (f[3] !== '0A' || parseInt(f[1]?.split(':')[1] ?? '', 16) !== port) continue;
      found = (found ?? 0) + parseInt(f[4]?.split(':')[1] ?? '0', 16);
    }
  }
  return found;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Stops taking connections and waits until the requests in flight have answered (at most
     * `graceMs`); answers during the wait close their connection. Then `close()` finishes the job.
     * True when everything finished in time.
     */
    drain(graceMs: number): Promise<boolean>;
  }
}

/**
 * Graceful stop. Node's own `server.close()` also closes every connection it thinks idle at that
 * moment, and a connection whose request has arrived but not yet been read by a busy process looks
 * idle: its client would get a reset. So the listening socket is closed first (no new connection),
 * requests keep being read and answered on the open connections with `Connection: close`, and
 * only after a quiet moment with nothing in flight does the server close the rest.
 */
export default fp(
  async (app: FastifyInstance) => {
    let inFlight = 0;
    let lastStart = 0;
    let stopping = false;
    app.addHook('onRequest', async (request, reply) => {
      inFlight++;
      lastStart = Date.now();
      const socket = request.raw.socket;
      let done = false;
      const finished = () => {
        if (!done) {
          done = true;
          inFlight--;
        }
      };
      // 'close' comes after the answer is handed to the socket or when the client goes away; an
      // answer still waiting in the socket's buffer for a slow reader is in flight until it drains
      reply.raw.once('close', () => {
        if (socket && !socket.destroyed && socket.writableLength > 0) {
          socket.once('drain', finished);
          socket.once('close', finished);
        } else finished();
      });
      if (stopping) reply.header('Connection', 'close');
    });
    app.decorate('drain', async (graceMs: number) => {
      stopping = true;
      const deadline = Date.now() + graceMs;
      // Connections the kernel completed before the signal but the process has not accepted yet
      // (it was busy) carry requests already sent: closing the listening socket would reset them.
      // So the listener stays open until the kernel's accept queue is empty (read from
      // /proc/net/tcp on Linux; elsewhere, until no connection has come for a moment); connections
      // accepted meanwhile are served with `Connection: close`.
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      let lastConnection = Date.now();
      const seen = () => (lastConnection = Date.now());
      app.server.on('connection', seen);
      for (let turns = 0; Date.now() < deadline; turns++) {
        const queued = acceptQueueLength(port);
        if (turns >= 2 && (queued === 0 || (queued === null && Date.now() - lastConnection >= LISTEN_QUIET_MS))) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      app.server.off('connection', seen);
      // the listening socket only: open connections (and requests not yet read on them) stay
      if (app.server.listening) Server.prototype.close.call(app.server);
      while (Date.now() < deadline) {
        if (inFlight === 0 && Date.now() - lastStart >= QUIET_MS) return true;
        await new Promise((r) => setTimeout(r, 25));
      }
      return false;
    });
  },
  { name: 'graceful', fastify: '5.x' },
);
