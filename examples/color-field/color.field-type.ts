import { Injectable } from '@nestjs/common';
import { CheckedTextFieldType, ParseResult, parseCharField } from 'rowspace/extension';

/** `#rrggbb`, any case on input (stored lower-case). */
const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/**
 * `color`: a text cell holding `#rrggbb`. Empty cells are `""` as url and email cells are;
 * anything else is refused with the usual validation error
 * (`{"error": "ERROR_REQUEST_BODY_VALIDATION", "detail": {"field_<id>": [{"error": …, "code": "invalid"}]}}`).
 * Sorting, search and conversion to and from text come from the text-like base class:
 * converting text to color keeps the cells that are colors and empties the others.
 */
@Injectable()
export class ColorFieldType extends CheckedTextFieldType {
  readonly type = 'color';

  protected parse(value: unknown): ParseResult<string> {
    const result = parseCharField(value, { nullAs: '', patterns: [HEX_COLOR] });
    if (!result.ok) return { ok: false, errors: [{ error: 'Enter a color as #rrggbb.', code: 'invalid' }] };
    return { ok: true, value: (result.value ?? '').toLowerCase() };
  }
}
