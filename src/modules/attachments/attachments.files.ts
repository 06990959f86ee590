import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata } from 'sharp';
import { getDocumentProxy, extractText } from 'unpdf';
import { AppError, Errors } from '../../lib/errors.ts';

export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** checked from the header before a pixel is decoded: a 50,000 × 50,000 PNG of a few KB is refused here */
export const ATTACHMENT_MAX_PIXELS = 50_000_000;
export const PDF_MAX_PAGES = 50;
const THUMB_SIDE = 320;

export type AttachmentMime = 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';

export type Accepted = {
  bytes: Buffer;
  mime: AttachmentMime;
  /** SHA-256 of the bytes as stored and as uploaded (they differ when location data was removed) */
  sha256: string;
  uploadSha256: string;
  width: number | null;
  height: number | null;
  thumbnail: Buffer | null;
};

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/**
 * What the bytes are, from the bytes (the name and the declared type are the client's word): a
 * JPEG, PNG, WebP or PDF, else 415 naming what it is when we know (HEIC when this server's image
 * library cannot read it, SVG and HTML never).
 */
export async function sniff(bytes: Buffer): Promise<AttachmentMime | 'image/heic'> {
  if (bytes.length > ATTACHMENT_MAX_BYTES)
    throw Errors.tooLarge(`a file may be at most ${ATTACHMENT_MAX_BYTES / 1048576} MiB`);
  const type = await fileTypeFromBuffer(bytes);
  const mime = type?.mime as string | undefined;
  if (mime === 'image/jpeg' || mime === 'image/png' || mime === 'image/webp' || mime === 'application/pdf') return mime;
  if (mime === 'image/heic' || mime === 'image/heif') return 'image/heic';
  const head = bytes.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
  if (head.startsWith('<svg') || head.startsWith('<?xml') || head.includes('<svg'))
    throw Errors.unsupportedMedia('SVG images are not accepted: send a JPEG, PNG, WebP or PDF');
  if (head.startsWith('<!doctype html') || head.startsWith('<html'))
    throw Errors.unsupportedMedia('an HTML page is not an image: send a JPEG, PNG, WebP or PDF');
  throw Errors.unsupportedMedia(
    `${type ? `${type.ext.toUpperCase()} files are` : 'this file is'} not accepted: send a JPEG, PNG, WebP or PDF`,
  );
}

/** A zip archive's end record inside an image: the file is two files at once (a polyglot). */
function holdsArchive(bytes: Buffer): boolean {
  return bytes.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06])) || bytes.includes(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
}

/** An image or PDF checked whole and made safe to keep: location removed, thumbnail made. */
export async function acceptFile(bytes: Buffer): Promise<Accepted> {
  const kind = await sniff(bytes);
  const uploadSha256 = sha256(bytes);
  if (kind === 'application/pdf') {
    await inspectPdf(bytes, false);
    return { bytes, mime: kind, sha256: uploadSha256, uploadSha256, width: null, height: null, thumbnail: null };
  }
  if (holdsArchive(bytes)) throw Errors.unsupportedMedia('the image also holds a zip archive: send the image alone');
  const image = await readImage(bytes, kind);
  return { ...image, uploadSha256, sha256: sha256(image.bytes) };
}

async function readImage(bytes: Buffer, kind: AttachmentMime | 'image/heic') {
  const open = () => sharp(bytes, { limitInputPixels: ATTACHMENT_MAX_PIXELS, failOn: 'truncated' });
  let meta: Metadata;
  try {
    meta = await open().metadata();
  } catch (err) {
    if (kind === 'image/heic')
      throw Errors.unsupportedMedia(
        'HEIC images cannot be read on this server: send a JPEG, PNG or WebP (the phone can share one)',
      );
    throw imageRefusal(err);
  }
  if (kind === 'image/heic')
    throw Errors.unsupportedMedia(
      'HEIC images cannot be read on this server: send a JPEG, PNG or WebP (the phone can share one)',
    );
  if ((meta.width ?? 0) * (meta.height ?? 0) > ATTACHMENT_MAX_PIXELS)
    throw Errors.tooLarge(`an image may have at most ${ATTACHMENT_MAX_PIXELS / 1e6} million pixels`);
  try {
    // metadata (EXIF with its GPS position, XMP, comments) is dropped by re-encoding; the
    // orientation is applied first so the picture stays upright without it
    let stored = bytes;
    if (meta.exif || meta.xmp || meta.iptc || meta.comments?.length) {
      const img = open().rotate();
      stored =
        kind === 'image/png'
          ? await img.png().toBuffer()
          : kind === 'image/webp'
            ? await img.webp({ quality: 90 }).toBuffer()
            : await img.jpeg({ quality: 92, mozjpeg: true }).toBuffer();
    }
    // decoding every pixel for the thumbnail also proves the image whole (a truncated one fails)
    const thumbnail = await sharp(stored, { limitInputPixels: ATTACHMENT_MAX_PIXELS, failOn: 'truncated' })
      .rotate()
      .resize({ width: THUMB_SIDE, height: THUMB_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
    const upright = (meta.orientation ?? 1) >= 5;
    return {
      bytes: stored,
      mime: kind,
      width: (upright ? meta.height : meta.width) ?? null,
      height: (upright ? meta.width : meta.height) ?? null,
      thumbnail,
    };
  } catch (err) {
    throw imageRefusal(err);
  }
}

function imageRefusal(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message))
    return Errors.tooLarge(`an image may have at most ${ATTACHMENT_MAX_PIXELS / 1e6} million pixels`);
  return Errors.rule('the image could not be read: it is damaged or incomplete');
}

/**
 * A PDF is refused when it carries JavaScript (scripts run in some viewers) or more than
 * PDF_MAX_PAGES pages; with `withText`, its text layer (an electronic invoice's) is returned.
 */
export async function inspectPdf(bytes: Buffer, withText: boolean): Promise<{ pages: number; text: string }> {
  // the raw names first: a script in an uncompressed object is found without parsing anything
  if (/\/(JavaScript|JS)[\s/<([]/.test(bytes.toString('latin1')))
    throw Errors.unsupportedMedia('PDF files with JavaScript are not accepted');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: true });
  } catch {
    throw Errors.rule('the PDF could not be read: it is damaged or protected');
  }
  try {
    if (pdf.numPages > PDF_MAX_PAGES) throw Errors.rule(`a PDF may have at most ${PDF_MAX_PAGES} pages`);
    const actions = await pdf.getJSActions().catch(() => null);
    if (actions && Object.keys(actions).length)
      throw Errors.unsupportedMedia('PDF files with JavaScript are not accepted');
    if (!withText) return { pages: pdf.numPages, text: '' };
    const { text } = await extractText(pdf, { mergePages: false });
    return { pages: pdf.numPages, text: (Array.isArray(text) ? text : [text]).slice(0, 3).join('\n') };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw Errors.rule('the PDF could not be read: it is damaged or protected');
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}
