import { fromBuffer } from 'file-type';
import type sharpType from 'sharp';
import { lazy } from '../core/lazy';

/** sharp (and libvips) load on the first image, not at start-up. */
const sharp = lazy(() => require('sharp') as typeof sharpType);

/** Baserow's USER_THUMBNAILS: name → [width, height]; a null side keeps the aspect ratio. */
export const THUMBNAILS: Readonly<Record<string, readonly [number | null, number | null]>> = {
  tiny: [null, 21],
  small: [48, 48],
  card_cover: [300, 160],
};

/** Raster formats decoded into thumbnails (as Pillow opens them); SVG and the rest stay plain files. */
const IMAGE_FORMATS: Readonly<Record<string, keyof sharpType.FormatEnum>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
};

/** Types without a signature, recognised by extension only when the content is text. */
const TEXT_TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  md: 'text/markdown',
  json: 'application/json',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  svg: 'image/svg+xml',
  ics: 'text/calendar',
  vcf: 'text/vcard',
  yaml: 'application/yaml',
  yml: 'application/yaml',
};

export interface Inspection {
  mimeType: string;
  /** Set when the content is an image thumbnails are made of. */
  image: { width: number; height: number; format: keyof sharpType.FormatEnum } | null;
}

/**
 * What a file really is, from its content: file-type reads the signature (a zip named `.png`
 * is a zip), sharp the image header. Files of no known signature are text only when their
 * first bytes are valid UTF-8 without NULs; otherwise `application/octet-stream`.
 */
export async function inspect(path: string, head: Buffer, extension: string, maxPixels: number): Promise<Inspection> {
  let detected: { mime: string } | undefined;
  try {
    detected = await fromBuffer(head);
  } catch {
    detected = undefined; // EndOfStreamError on truncated content: no known signature.
  }
  if (!detected) {
    const textType = looksLikeText(head) ? (TEXT_TYPES[extension] ?? 'text/plain') : 'application/octet-stream';
    // XML and SVG carry a signature file-type knows; text named `.svg` without one stays plain text.
    return { mimeType: textType === 'image/svg+xml' ? 'text/plain' : textType, image: null };
  }
  const format = IMAGE_FORMATS[detected.mime];
  if (!format) return { mimeType: detected.mime, image: null };
  try {
    const meta = await sharp()(path, { limitInputPixels: maxPixels }).metadata();
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    if (width < 1 || height < 1 || width * height > maxPixels) return { mimeType: detected.mime, image: null };
    return { mimeType: detected.mime, image: { width, height, format } };
  } catch {
    return { mimeType: detected.mime, image: null };
  }
}

function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, trimIncompleteUtf8(head)));
    return true;
  } catch {
    return false;
  }
}

/** The length of `buffer` without a UTF-8 sequence cut at its end (the head is a prefix). */
function trimIncompleteUtf8(buffer: Buffer): number {
  const end = buffer.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = buffer[end - back];
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? end - back : end;
  }
  return end;
}

/**
 * The thumbnails of an image (Pillow's `ImageOps.fit`: scaled to cover the box, centred,
 * cropped), in the image's own format. The image is decoded once, into pixels twice the size
 * the largest thumbnail needs, and every thumbnail is cut from those. Rejects when the image
 * cannot be decoded (truncated).
 */
export async function makeThumbnails(path: string, image: NonNullable<Inspection['image']>, maxPixels: number): Promise<Map<string, Buffer>> {
  const boxes = Object.entries(THUMBNAILS).map(([name, [w, h]]) => {
    const width = w ?? Math.max(1, Math.round((image.width / image.height) * (h ?? image.height)));
    const height = h ?? Math.max(1, Math.round((image.height / image.width) * width));
    return { name, width, height };
  });
  // A sliver (1×80,000,000) would ask for a gigapixel `tiny`: such an image gets no thumbnails.
  if (boxes.some((box) => box.width * box.height > maxPixels)) throw new Error('A thumbnail would exceed the pixel limit.');
  const scale = Math.min(1, 2 * Math.max(...boxes.map((box) => Math.max(box.width / image.width, box.height / image.height))));
  const { data, info } = await sharp()(path, { limitInputPixels: maxPixels })
    .resize(Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)), { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const result = new Map<string, Buffer>();
  for (const box of boxes) {
    const buffer = await sharp()(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .resize(box.width, box.height, { fit: 'cover', position: 'centre' })
      .toFormat(image.format)
      .toBuffer();
    result.set(box.name, buffer);
  }
  return result;
}
