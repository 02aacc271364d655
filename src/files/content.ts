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

/**
 * The names Pillow gives the raster formats it opens, where they differ from file-type's
 * (Baserow stores `image/<Pillow's format>` for any content Pillow opens).
 */
const PILLOW_TYPES: Readonly<Record<string, string>> = {
  'image/jpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
  'image/tiff': 'image/tiff',
  'image/bmp': 'image/bmp',
  'image/x-icon': 'image/ico',
  'image/vnd.adobe.photoshop': 'image/psd',
};

export interface Inspection {
  /** The type of the content when it is an image (whatever its name says), else null. */
  imageType: string | null;
  /** Set when the content is an image thumbnails are made of. */
  image: { width: number; height: number; format: keyof sharpType.FormatEnum } | null;
}

/**
 * Whether a file's content is an image, read from the content only: file-type reads the
 * signature (a zip named `.png` is no image), sharp the header of the formats thumbnails are
 * made of. Only images decoded here become `is_image` files, served inline.
 */
export async function inspect(path: string, head: Buffer, maxPixels: number): Promise<Inspection> {
  let detected: { mime: string } | undefined;
  try {
    detected = await fromBuffer(head);
  } catch {
    detected = undefined; // EndOfStreamError on truncated content: no known signature.
  }
  const imageType = (detected && PILLOW_TYPES[detected.mime]) ?? null;
  const format = detected && IMAGE_FORMATS[detected.mime];
  if (!imageType || !format) return { imageType, image: null };
  try {
    const meta = await sharp()(path, { limitInputPixels: maxPixels }).metadata();
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    if (width < 1 || height < 1 || width * height > maxPixels) return { imageType, image: null };
    return { imageType, image: { width, height, format } };
  } catch {
    return { imageType, image: null };
  }
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
