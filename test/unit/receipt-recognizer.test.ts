import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import sharp from 'sharp';
import { AppError } from '../../src/lib/errors.ts';
import { createRecognizer } from '../../src/modules/receipts/receipts.recognizer.ts';
import type { OcrEngine } from '../../src/modules/receipts/ocr.engine.ts';

/** An engine that answers when told to, counting its loads and the readings running at once. */
function slowEngine() {
  const state = { loads: 0, running: 0, most: 0, release: [] as (() => void)[] };
  const load = async (): Promise<OcrEngine> => {
    state.loads++;
    return {
      async read() {
        state.running++;
        state.most = Math.max(state.most, state.running);
        await new Promise<void>((r) => state.release.push(r));
        state.running--;
        return [{ text: 'x', confidence: 1, box: { x: 0, y: 0, width: 1, height: 1 } }];
      },
      close: async () => {},
    };
  };
  return { state, load };
}

const tick = () => new Promise((r) => setTimeout(r, 30));

describe('the recognizer', () => {
  it('runs one reading per core, queues a few, refuses more with 503, loads the model once and counts', async () => {
    const image = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const { state, load } = slowEngine();
    const registry = new Registry();
    const r = createRecognizer({ enabled: true, concurrency: 2, queue: 1, maxPixels: 1e6, registry, load });
    const first = [r.readImage(image), r.readImage(image), r.readImage(image)];
    await tick();
    assert.deepEqual(r.load(), { running: 2, waiting: 1 });
    await assert.rejects(r.readImage(image), (e: AppError) => e.status === 503 && e.code === 50301);
    while (state.release.length || r.load().running) {
      state.release.splice(0).forEach((go) => go());
      await tick();
    }
    assert.equal((await Promise.all(first)).length, 3);
    assert.equal(state.loads, 1);
    assert.equal(state.most, 2);
    const text = await registry.metrics();
    assert.match(text, /ledger_receipt_recognitions_total\{outcome="ok"\} 3/);
    assert.match(text, /ledger_receipt_recognitions_total\{outcome="busy"\} 1/);
    assert.match(text, /ledger_receipt_recognition_seconds_count 3/);
  });

  it('is off when told, and refuses a pixel flood from its header', async () => {
    const off = createRecognizer({ enabled: false, concurrency: 1, queue: 0, maxPixels: 1e6, registry: null });
    await assert.rejects(off.readImage(Buffer.alloc(10)), (e: AppError) => e.status === 404);
    const big = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const { load } = slowEngine();
    const r = createRecognizer({ enabled: true, concurrency: 1, queue: 0, maxPixels: 1e6, registry: null, load });
    await assert.rejects(r.readImage(big), (e: AppError) => e.status === 413);
  });
});
