/**
 * Baserow's `truncate_middle`: at most `max` characters (code points), the start and the end
 * kept around `marker`; the left part is the shorter one when they cannot be equal.
 */
export function truncateMiddle(text: string, max: number, marker = '...'): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const keep = max - [...marker].length;
  const start = Math.floor(keep / 2);
  return `${chars.slice(0, start).join('')}${marker}${chars.slice(chars.length - (keep - start)).join('')}`;
}
