import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { images } from '../../db/schema/index.ts';
import { Errors } from '../../lib/errors.ts';

export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_MAX_SIDE = 4096;
/** decoded pixels of an image, all frames of an animation together (64 MiB as RGBA) */
export const IMAGE_MAX_PIXELS = IMAGE_MAX_SIDE * IMAGE_MAX_SIDE;
/** frames of an animated GIF or WebP */
export const IMAGE_MAX_FRAMES = 100;
const ALLOWED: Record<string, { ext: string; encode: (s: Sharp) => Sharp }> = {
  'image/png': { ext: 'png', encode: (s) => s.png() },
  'image/jpeg': { ext: 'jpg', encode: (s) => s.jpeg({ quality: 85 }) },
  'image/webp': { ext: 'webp', encode: (s) => s.webp({ quality: 85 }) },
  'image/gif': { ext: 'gif', encode: (s) => s.gif() },
};

export interface StoredImage {
  key: string;
  contentType: string;
}

/**
 * Checks an uploaded image by its bytes (never by name or declared type), refuses oversize ones
 * and re-encodes it, which drops metadata (EXIF location) and anything appended after the image.
 */
export async function processImage(
  buf: Buffer,
): Promise<{ data: Buffer; contentType: string; ext: string; width: number; height: number }> {
  if (buf.length > IMAGE_MAX_BYTES) throw Errors.tooLarge('image larger than 2 MiB');
  const type = await fileTypeFromBuffer(buf);
  const spec = type ? ALLOWED[type.mime] : undefined;
  if (!type || !spec) throw Errors.unsupportedMedia('image must be PNG, JPEG, WebP or GIF');
  let meta: Metadata;
  try {
    // the header alone: dimensions and frames are checked before a pixel is decoded
    meta = await sharp(buf, { limitInputPixels: false }).metadata();
  } catch {
    throw Errors.unsupportedMedia('the image cannot be decoded');
  }
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  const frames = meta.pages ?? 1;
  if (width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE)
    throw Errors.tooLarge(`image larger than ${IMAGE_MAX_SIDE} pixels a side`);
  if (!width || !height) throw Errors.unsupportedMedia('the image cannot be decoded');
  if (frames > IMAGE_MAX_FRAMES) throw Errors.tooLarge(`an animation of more than ${IMAGE_MAX_FRAMES} frames`);
  const animated = (type.mime === 'image/gif' || type.mime === 'image/webp') && frames > 1;
  if (width * height * (animated ? frames : 1) > IMAGE_MAX_PIXELS)
    throw Errors.tooLarge(`an image of more than ${IMAGE_MAX_PIXELS} pixels, all frames together`);
  try {
    const pipeline = sharp(buf, { animated, limitInputPixels: IMAGE_MAX_PIXELS }).rotate();
    const data = await spec.encode(pipeline).toBuffer();
    return { data, contentType: type.mime, ext: spec.ext, width, height };
  } catch {
    throw Errors.unsupportedMedia('the image cannot be decoded');
  }
}

export async function storeImage(db: Executor, userId: number, buf: Buffer): Promise<StoredImage> {
  const img = await processImage(buf);
  const key = `${randomBytes(16).toString('hex')}.${img.ext}`;
  await db.insert(images).values({
    key,
    userId,
    contentType: img.contentType,
    data: img.data,
    size: img.data.length,
    width: img.width,
    height: img.height,
  });
  return { key, contentType: img.contentType };
}

export async function loadImage(db: Executor, key: string) {
  const [row] = await db
    .select({ data: images.data, contentType: images.contentType })
    .from(images)
    .where(eq(images.key, key));
  return row;
}
