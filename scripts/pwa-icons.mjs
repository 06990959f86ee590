// Draws the web app's icons (an open ledger with a pen stroke on the accent colour) as PNGs at
// the sizes the manifest and the platforms ask for: 192 and 512 (any), 512 maskable (the drawing
// kept inside the safe circle), 180 for iOS home screens and 32 for the tab. Run it after changing
// the drawing: `node scripts/pwa-icons.mjs`; the PNGs are committed under web/public/icons/.
import { mkdirSync } from 'node:fs';
import sharp from 'sharp';

const out = new URL('../web/public/icons/', import.meta.url);
mkdirSync(out, { recursive: true });

const ACCENT = '#1f55c0';

/** The drawing on a 512 square; `inset` shrinks it towards the centre (maskable icons). */
function svg(inset, round) {
  const s = 1 - inset * 2;
  const o = 512 * inset;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
  <rect width="512" height="512" rx="${round ? 112 : 0}" fill="${ACCENT}"/>
  <g transform="translate(${o} ${o}) scale(${s})">
    <path d="M96 132c56-22 112-22 160 10v260c-48-32-104-32-160-10z" fill="#ffffff"/>
    <path d="M416 132c-56-22-112-22-160 10v260c48-32 104-32 160-10z" fill="#dfe8fb"/>
    <path d="M132 190h88M132 236h88M132 282h64" stroke="${ACCENT}" stroke-width="18" stroke-linecap="round"/>
    <path d="M292 300l84-120 26 18-84 120-34 14z" fill="#f2b233"/>
  </g>
</svg>`;
}

const jobs = [
  ['icon-192.png', 192, 0, true],
  ['icon-512.png', 512, 0, true],
  ['maskable-512.png', 512, 0.1, false],
  ['apple-touch-icon-180.png', 180, 0.06, false],
  ['favicon-32.png', 32, 0, true],
];
for (const [name, size, inset, round] of jobs) {
  await sharp(Buffer.from(svg(inset, round)))
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(new URL(name, out).pathname);
  console.log(`web/public/icons/${name} ${size}x${size}`);
}
