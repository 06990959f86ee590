import { describe, expect, it } from 'vitest';
import type { Op, PendingFile } from './db';
import { sendFiles, type FileBox, type SendFile } from './files';

/** The user's store in memory: files by id, the ids the server gave, the outbox. */
function memoryBox(files: PendingFile[], ids: [number, number][] = [], ops: Op[] = []) {
  const state = { files: new Map(files.map((f) => [f.id!, f])), ids: new Map(ids), ops };
  const box: FileBox = {
    read: async () => ({ files: [...state.files.values()], ids: new Map(state.ids), ops: [...state.ops] }),
    tried: async (f) => void state.files.set(f.id!, { ...f, attempts: f.attempts + 1 }),
    done: async (f) => void state.files.delete(f.id!),
    refused: async (f, refusal) => void state.files.set(f.id!, { ...f, attempts: f.attempts + 1, refusal }),
  };
  return { state, box };
}

function file(id: number, target: number): PendingFile {
  return { id, target, blob: new Blob([`bytes of ${id}`]), name: `r${id}.jpg`, at: id, attempts: 0, refusal: null };
}
function create(target: number): Op {
  return {
    seq: -target,
    kind: 'create',
    key: `k${target}`,
    target,
    body: {},
    at: 0,
    attempts: 0,
    state: 'queued',
    refusal: null,
  };
}
const answer = (status: number, body: unknown = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A server that keeps what it is sent, one attachment per (entry, bytes) as the real one does. */
function server(script: (call: number) => Response | Error = () => answer(201)) {
  const calls: [number, string][] = [];
  const held = new Set<string>();
  const send: SendFile = async (id, f) => {
    calls.push([id, f.name]);
    const out = script(calls.length);
    if (out instanceof Error) throw out;
    if (out.ok) held.add(`${id}:${await f.blob.text()}`);
    return out;
  };
  return { calls, held, send };
}

describe('sendFiles: the images of entries saved offline', () => {
  it('keeps a file while its entry waits, then sends it once to the id the server gave the entry', async () => {
    const { state, box } = memoryBox([file(1, -5)], [], [create(-5)]);
    const srv = server();
    expect(await sendFiles(box, srv.send)).toEqual({ settled: 0, failure: null });
    expect(srv.calls).toEqual([]);
    expect(state.files.size).toBe(1);

    // the create reached the server as entry 42
    state.ops = [];
    state.ids.set(-5, 42);
    expect(await sendFiles(box, srv.send)).toEqual({ settled: 1, failure: null });
    expect(srv.calls).toEqual([[42, 'r1.jpg']]);
    expect(state.files.size).toBe(0);
    // a later run sends nothing again
    await sendFiles(box, srv.send);
    expect(srv.calls).toHaveLength(1);
  });

  it('never lets a file go on a cut or a passing failure; the retry lands on the same entry once', async () => {
    const { state, box } = memoryBox(
      [file(1, -5), file(2, -6)],
      [
        [-5, 42],
        [-6, 43],
      ],
    );
    // the first request is cut (sent, its answer lost: the server may hold it), the next one a 503
    const srv = server((n) => (n === 1 ? new TypeError('Failed to fetch') : n === 2 ? answer(503) : answer(201)));
    const first = await sendFiles(box, srv.send);
    expect(first.settled).toBe(0);
    expect(first.failure).toBeInstanceOf(TypeError);
    expect(state.files.get(1)).toMatchObject({ attempts: 1, refusal: null });
    expect(state.files.size).toBe(2);

    const second = await sendFiles(box, srv.send);
    expect(second.failure).toBeInstanceOf(Error);
    expect(state.files.size).toBe(2);

    expect(await sendFiles(box, srv.send)).toEqual({ settled: 2, failure: null });
    expect(state.files.size).toBe(0);
    // every send went to the entry's own id, in the order the files were saved
    expect(srv.calls).toEqual([
      [42, 'r1.jpg'],
      [42, 'r1.jpg'],
      [42, 'r1.jpg'],
      [43, 'r2.jpg'],
    ]);
    expect([...srv.held].sort()).toEqual(['42:bytes of 1', '43:bytes of 2']);
  });

  it('keeps a file the server refuses for good, unsent; lets one go whose entry is gone', async () => {
    const { state, box } = memoryBox(
      [file(1, -5), file(2, -6), file(3, -7)],
      [
        [-5, 42],
        [-6, 43],
        [-7, 44],
      ],
    );
    const refusal = { code: 42201, message: 'your attachments would take more than your storage' };
    const srv = server((n) => (n === 1 ? answer(422, refusal) : n === 2 ? answer(404) : answer(201)));
    expect(await sendFiles(box, srv.send)).toEqual({ settled: 3, failure: null });
    expect([...state.files.keys()]).toEqual([1]);
    expect(state.files.get(1)!.refusal).toEqual({ status: 422, body: refusal });
    await sendFiles(box, srv.send);
    expect(srv.calls).toHaveLength(3);
  });

  it('lets a file go, unsent, when its entry left the outbox without reaching the server', async () => {
    const { state, box } = memoryBox([file(1, -5), file(2, -6)], [], [create(-6)]);
    const srv = server();
    expect(await sendFiles(box, srv.send)).toEqual({ settled: 1, failure: null });
    expect(srv.calls).toEqual([]);
    expect([...state.files.keys()]).toEqual([2]);
  });

  it('sends at once the file of an entry already on the server (the network left before its image)', async () => {
    const { state, box } = memoryBox([file(1, 77)]);
    const srv = server();
    expect(await sendFiles(box, srv.send)).toEqual({ settled: 1, failure: null });
    expect(srv.calls).toEqual([[77, 'r1.jpg']]);
    expect(state.files.size).toBe(0);
  });
});
