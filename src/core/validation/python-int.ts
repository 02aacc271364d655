/**
 * Python's `int()` of a string, as Baserow's handlers read ids from text (a search term, a
 * mention's id): surrounding whitespace, an optional sign, then decimal digits of any script
 * with single `_` between them. Null when Python would raise ValueError. Very large values
 * lose precision (they name nothing here anyway).
 */
export function pythonInt(text: string): number | null {
  const match = /^([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)$/u.exec(text.trim());
  if (!match) return null;
  let value = 0;
  for (const char of match[2].replace(/_/g, '')) value = value * 10 + digitValue(char);
  return match[1] === '-' ? -value : value;
}

/** The numeric value of a decimal digit of any script (they come in runs of ten, 0 first). */
function digitValue(char: string): number {
  const code = char.codePointAt(0)!;
  let start = code;
  while (start > 0 && /\p{Nd}/u.test(String.fromCodePoint(start - 1))) start -= 1;
  return (code - start) % 10;
}
