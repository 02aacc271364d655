import { inflateRawSync } from 'node:zlib';

/** What a zip archive may inflate to. */
export interface ZipBounds {
  /** Sum of the entries' inflated sizes. */
  maxInflatedBytes: number;
  /** Inflated size over compressed size of an entry larger than RATIO_FLOOR_BYTES. */
  maxRatio: number;
}

/** Entries smaller than this inflated are not held to the ratio (a tiny repetitive XML part compresses well). */
const RATIO_FLOOR_BYTES = 1024 * 1024;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** A size that does not fit 32 bits (ZIP64 keeps it elsewhere): far beyond any bound here. */
const ZIP64_SIZE = 0xffffffff;

interface Entry {
  name: string;
  method: number;
  compressed: number;
  inflated: number;
  localOffset: number;
}

/** Why an archive is refused; null when it is within its bounds. */
export type ZipRefusal = { reason: 'not-a-zip' | 'too-large' | 'ratio' | 'lies'; detail: string };

/**
 * Checks an archive against its bounds without inflating it first: the central directory (at
 * the end of the file) declares every entry's compressed and inflated size, so an archive that
 * would inflate beyond the bounds is refused by reading a few kilobytes. The declared sizes are
 * then held to: each deflated entry is inflated once with its declared size as the most zlib
 * may produce, so an entry lying about its size is refused as soon as it passes it.
 */
export function checkZipBounds(bytes: Buffer, bounds: ZipBounds): ZipRefusal | null {
  const entries = centralDirectory(bytes);
  if (!entries) return { reason: 'not-a-zip', detail: 'The file is not a zip archive.' };
  let total = 0;
  for (const entry of entries) {
    total += entry.inflated;
    if (entry.inflated === ZIP64_SIZE || total > bounds.maxInflatedBytes) {
      return { reason: 'too-large', detail: `it would inflate to more than ${mb(bounds.maxInflatedBytes)} MB` };
    }
    if (entry.inflated > RATIO_FLOOR_BYTES && entry.inflated > bounds.maxRatio * Math.max(1, entry.compressed)) {
      return { reason: 'ratio', detail: `its entry ${entry.name} inflates more than ${bounds.maxRatio} times` };
    }
  }
  for (const entry of entries) {
    if (entry.method !== 8) continue;
    const data = entryData(bytes, entry);
    if (!data) return { reason: 'not-a-zip', detail: 'The file is not a readable zip archive.' };
    try {
      // maxOutputLength must be at least 1; an entry declared empty that inflates to a byte or more is a liar all the same.
      const out = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.inflated) });
      if (out.length !== entry.inflated) return { reason: 'lies', detail: `its entry ${entry.name} does not inflate to its declared size` };
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return { reason: 'lies', detail: `its entry ${entry.name} inflates beyond its declared size` };
      return { reason: 'not-a-zip', detail: `its entry ${entry.name} is corrupt` };
    }
  }
  return null;
}

const mb = (bytes: number): string => String(Math.round((bytes / 1024 / 1024) * 10) / 10);

/** The entries the central directory lists, or null when the end-of-directory record is missing or inconsistent. */
function centralDirectory(bytes: Buffer): Entry[] | null {
  // The end-of-central-directory record: 22 bytes, then a comment of at most 65,535.
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= lowest; i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = bytes.readUInt16LE(eocd + 10);
  const size = bytes.readUInt32LE(eocd + 12);
  let offset = bytes.readUInt32LE(eocd + 16);
  if (offset + size > eocd) return null;
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== CENTRAL) return null;
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    entries.push({
      method: bytes.readUInt16LE(offset + 10),
      compressed: bytes.readUInt32LE(offset + 20),
      inflated: bytes.readUInt32LE(offset + 24),
      localOffset: bytes.readUInt32LE(offset + 42),
      name: bytes.toString('utf8', offset + 46, Math.min(bytes.length, offset + 46 + nameLength)),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** An entry's compressed bytes (after its local header), or null when the header is not where the directory says. */
function entryData(bytes: Buffer, entry: Entry): Buffer | null {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL) return null;
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  if (start + entry.compressed > bytes.length) return null;
  return bytes.subarray(start, start + entry.compressed);
}
