/*
 * Hostile images for tests: a GIF whose canvas is huge while its frames hold one pixel each (a few
 * hundred bytes that decode, frame by frame, to the whole canvas), and a PNG whose header claims
 * dimensions its data does not have.
 */

/** An animated GIF of `frames` frames of `side` x `side`, each frame's data one pixel (the decoder fills the rest). */
export function gifBomb(side: number, frames: number): Buffer {
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'latin1');
  head.writeUInt16LE(side, 6);
  head.writeUInt16LE(side, 8);
  head[10] = 0x80; // a global colour table of 2 entries
  const palette = Buffer.from([0, 0, 0, 255, 255, 255]);
  const loop = Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'latin1'), 0x03, 0x01, 0x00, 0x00, 0x00]);
  // a graphic control extension (10 ms), an image descriptor of side x side at 0,0, LZW: clear, 0, end
  const frame = Buffer.from([
    0x21,
    0xf9,
    0x04,
    0x00,
    0x01,
    0x00,
    0x00,
    0x00,
    0x2c,
    0,
    0,
    0,
    0,
    side & 0xff,
    side >> 8,
    side & 0xff,
    side >> 8,
    0x00,
    0x02,
    0x02,
    0x44,
    0x01,
    0x00,
  ]);
  return Buffer.concat([head, palette, loop, ...Array.from({ length: frames }, () => frame), Buffer.from([0x3b])]);
}
