// Receipt recognition on a real server process: a 1170 × 2532 payment screenshot read through
// POST /api/receipts/recognize, the first time (the model loads) and then with the model loaded
// (p50, p95), and the server's resident memory before, once loaded, and with the queue full.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { call, demoSession, multipart, startServer, stopServer } from '../test/resilience/helpers.ts';

const PORT = 3990;
const RUNS = 20;
const MB = 1024 * 1024;

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A WeChat Pay success screen at 390 × 844 CSS pixels, 3x: 1170 × 2532, shared as a JPEG. */
async function screenshot(): Promise<Buffer> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 });
    await page.setContent(`<body style="margin:0;font-family:sans-serif;background:#ededed">
      <div style="text-align:center;padding:60px 16px 28px"><div style="color:#07c160;font-size:18px">支付成功</div>
      <div style="margin-top:28px">瑞幸咖啡(国贸店)</div><div style="font-size:36px;font-weight:600">¥28.50</div></div>
      <div style="background:#fff;margin:12px;padding:4px 16px;font-size:14px">
      ${[
        ['支付时间', '2024年3月15日 12:34:56'],
        ['支付方式', '零钱'],
        ['交易单号', '4200002145202403151234567890'],
        ['商户单号', 'LK20240315123456'],
      ]
        .map(
          ([k, v]) =>
            `<div style="display:flex;justify-content:space-between;padding:12px 0"><span>${k}</span><span>${v}</span></div>`,
        )
        .join('')}</div></body>`);
    return await sharp(await page.screenshot())
      .jpeg({ quality: 80 })
      .toBuffer();
  } finally {
    await browser.close();
  }
}

export async function run() {
  const image = await screenshot();
  const { width, height } = await sharp(image).metadata();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-receipts-'));
  const server = await startServer({ port: PORT, dataDir, env: { RECEIPTS_OCR_QUEUE: '4' } });
  try {
    const s = await demoSession(PORT);
    const recognise = async () => {
      const started = performance.now();
      const res = await call(PORT, '/api/receipts/recognize', {
        ...multipart('shot.jpg', image, s.auth),
        timeoutMs: 60_000,
      });
      if (res.status !== 200 && res.status !== 503) throw new Error(`recognition answered ${res.status} ${res.body}`);
      return { ms: performance.now() - started, status: res.status, body: res.body };
    };
    const idle = server.rss();
    const first = await recognise();
    const draft = JSON.parse(first.body).draft as { amount: string; counterparty: string };
    const loaded = server.rss();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push((await recognise()).ms);
    // the queue full: one running and every place in the queue taken, plus some refused
    let peak = server.rss();
    const sampler = setInterval(() => (peak = Math.max(peak, server.rss())), 20);
    const burst = await Promise.all(Array.from({ length: 1 + 4 + 3 }, recognise));
    clearInterval(sampler);
    return {
      image: `${width}x${height} JPEG, ${Math.round(image.length / 1024)} KB`,
      read: draft,
      cores: availableParallelism(),
      first_ms_with_model_load: Math.round(first.ms),
      p50_ms: Math.round(percentile(times, 50)),
      p95_ms: Math.round(percentile(times, 95)),
      rss_idle_mb: Math.round(idle / MB),
      rss_growth_loaded_mb: Math.round((loaded - idle) / MB),
      rss_growth_queue_full_mb: Math.round((peak - idle) / MB),
      burst: {
        answered: burst.filter((b) => b.status === 200).length,
        refused_503: burst.filter((b) => b.status === 503).length,
      },
    };
  } finally {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
