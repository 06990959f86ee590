import { performance } from 'node:perf_hooks';
import { Counter, Histogram, type Registry } from 'prom-client';
import sharp, { type OutputInfo } from 'sharp';
import { AppError, Errors } from '../../lib/errors.ts';
import { loadOcrEngine, type OcrEngine, type OcrLine, type RgbImage } from './ocr.engine.ts';

/** A photo's longer side is read at up to this many pixels: more only costs time. */
const READ_MAX_SIDE = 2048;
/** Mean luminance under which a screen is in its dark theme and is read inverted. */
const DARK_MEAN = 110;

export type RecognizerOptions = {
  /** RECEIPTS_OCR=off: the routes answer that recognition is off */
  enabled: boolean;
  /** recognitions run at once */
  concurrency: number;
  /** threads each recognition's model runs on (1 by default) */
  threads?: number;
  /** recognitions waiting beyond those; more are refused with 503 and Retry-After */
  queue: number;
  /** images with more pixels are refused before they are decoded */
  maxPixels: number;
  registry: Registry | null;
  /** loads the engine; tests may pass one that counts its loads */
  load?: () => Promise<OcrEngine>;
};

export type Recognizer = {
  readonly enabled: boolean;
  /** the text lines of an image, in reading order */
  readImage(bytes: Buffer): Promise<OcrLine[]>;
  /** waiting and running now (for tests and the benchmark) */
  load(): { running: number; waiting: number };
  close(): Promise<void>;
};

export type RecognitionOutcome = 'ok' | 'failed' | 'refused' | 'busy';

export function createRecognizer(opts: RecognizerOptions): Recognizer {
  // libvips keeps the results of recent operations (up to 50 MB) for a next call on the same image;
  // a server decodes each upload once, so the cache only holds memory
  sharp.cache(false);
  const metrics = opts.registry ? recognitionMetrics(opts.registry) : null;
  let engine: Promise<OcrEngine> | null = null;
  let running = 0;
  const waiting: (() => void)[] = [];

  // loaded at the first recognition and kept: a second per load, ~170 MB resident once loaded
  const getEngine = () => {
    engine ??= (opts.load ?? (() => loadOcrEngine(opts.threads ?? 1)))().catch((err: unknown) => {
      engine = null;
      throw err;
    });
    return engine;
  };

  async function slot(): Promise<() => void> {
    if (running >= opts.concurrency) {
      if (waiting.length >= opts.queue) {
        metrics?.recognitions.inc({ outcome: 'busy' });
        throw Errors.unavailable('recognition is busy, try again shortly');
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else running++;
    // the slot passes straight to the next waiter, so `running` never dips below a queue
    return () => {
      const next = waiting.shift();
      if (next) next();
      else running--;
    };
  }

  return {
    enabled: opts.enabled,
    async readImage(bytes) {
      if (!opts.enabled) throw Errors.featureOff('receipt recognition is off on this server');
      const release = await slot();
      const started = performance.now();
      try {
        const image = await decodeForReading(bytes, opts.maxPixels);
        const lines = await (await getEngine()).read(image);
        metrics?.recognitions.inc({ outcome: 'ok' });
        metrics?.seconds.observe((performance.now() - started) / 1000);
        return lines;
      } catch (err) {
        const refused = err instanceof AppError && err.status < 500;
        metrics?.recognitions.inc({ outcome: refused ? 'refused' : 'failed' });
        if (!refused) metrics?.failures.inc();
        throw err;
      } finally {
        release();
      }
    },
    load: () => ({ running, waiting: waiting.length }),
    async close() {
      const e = engine;
      engine = null;
      if (e) await (await e.catch(() => null))?.close();
    },
  };
}

function recognitionMetrics(registry: Registry) {
  const registers = [registry];
  return {
    recognitions: new Counter({
      name: 'ledger_receipt_recognitions_total',
      help: 'Receipt and screenshot recognitions by outcome (ok, failed, refused: bad input, busy: queue full)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    failures: new Counter({
      name: 'ledger_receipt_recognition_failures_total',
      help: 'Recognitions that failed on a readable input (the engine or the model)',
      registers,
    }),
    seconds: new Histogram({
      name: 'ledger_receipt_recognition_seconds',
      help: 'Time to read one image, decoding included, model loading included on the first',
      buckets: [0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 30],
      registers,
    }),
  };
}

/**
 * Decoded for reading: pixel count checked from the header before any pixel is decoded, turned
 * upright by its EXIF orientation, scaled down to READ_MAX_SIDE, transparency on white, and a
 * dark-theme screen inverted (the models were trained on dark text on light paper).
 */
export async function decodeForReading(bytes: Buffer, maxPixels: number): Promise<RgbImage> {
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'truncated', sequentialRead: true })
      .rotate()
      .resize({ width: READ_MAX_SIDE, height: READ_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw imageError(err);
  }
  const { data, info } = decoded;
  let sum = 0;
  // every 7th pixel is plenty for a mean
  let n = 0;
  for (let i = 0; i < data.length; i += 21) {
    sum += (data[i]! * 299 + data[i + 1]! * 587 + data[i + 2]! * 114) / 1000;
    n++;
  }
  if (n && sum / n < DARK_MEAN) for (let i = 0; i < data.length; i++) data[i] = 255 - data[i]!;
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** A decoding failure as the client's error: too many pixels, or not a readable image. */
export function imageError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) return Errors.tooLarge('the image has more pixels than allowed');
  return Errors.rule('the image could not be read (damaged or not an image)');
}
