import { Injectable } from '@nestjs/common';
import type { ColumnDefinition } from '../../../core/database/dialect';
import type { FieldError } from '../../../core/errors/api-error';
import type { FieldEntity } from '../field.entity';
import { CellError, fieldColumn, FieldType } from '../field-type';
import { NULL_NOT_ALLOWED, pythonFloat, pythonStr } from '../values/common';
import { ColumnFieldType } from './base';

export const RATING_STYLES = ['star', 'heart', 'thumbs-up', 'flag', 'smile'] as const;

/**
 * DRF's IntegerField on a request value: `int()` of its text once a trailing `.0…` is cut,
 * so "3", " 3 ", 3.0 and "3.00" are 3, while 3.5, true and "x" are invalid.
 */
function parseInteger(value: unknown): number | FieldError {
  const invalid: FieldError = { error: 'A valid integer is required.', code: 'invalid' };
  if (typeof value === 'string' && value.length > 1000) return { error: 'String value too large.', code: 'max_string_length' };
  if (typeof value !== 'string' && typeof value !== 'number') return invalid;
  const text = pythonStr(value).replace(/\.0*\s*$/, '');
  if (!/^\s*[+-]?\d(?:_?\d)*\s*$/.test(text)) return invalid;
  const n = Number(text.replace(/_/g, '').trim());
  return Number.isSafeInteger(n) ? n : invalid;
}

/** `rating`: an integer from 0 to `max_value` (never null; new rows get 0). */
@Injectable()
export class RatingFieldType extends ColumnFieldType {
  readonly type = 'rating';
  readonly canBeUnique = true;
  readonly properties = {
    max_value: { kind: 'int', min: 1, max: 10, required: false, default: 5 },
    color: { kind: 'string', max: 50, required: false, default: 'dark-orange' },
    style: { kind: 'choice', choices: RATING_STYLES, required: false, default: 'star' },
  } as const;

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'integer' };
  }

  /** A lower maximum clamps the existing ratings. */
  needsConversion(previous: FieldEntity, field: FieldEntity): boolean {
    return maxValue(previous) !== maxValue(field);
  }

  prepareValue(field: FieldEntity, value: unknown): number {
    if (value === null) throw new CellError([NULL_NOT_ALLOWED]);
    const n = parseInteger(value);
    if (typeof n !== 'number') throw new CellError([n]);
    const max = maxValue(field);
    if (n > max) throw new CellError([{ error: `Ensure this value is less than or equal to ${max}.`, code: 'max_value' }]);
    if (n < 0) throw new CellError([{ error: 'Ensure this value is greater than or equal to 0.', code: 'min_value' }]);
    return n;
  }

  defaultValue(): number {
    return 0;
  }

  toApi(_field: FieldEntity, raw: unknown): number {
    return raw == null ? 0 : Number(raw);
  }

  toText(_field: FieldEntity, apiValue: unknown): string | null {
    return apiValue == null ? null : String(apiValue);
  }

  /**
   * As Baserow converts: booleans become 1 or 0; any other value is read as a number,
   * rounded (half away from zero) and clamped to 0..max_value; what is not a number is 0.
   */
  convertFrom(field: FieldEntity, apiValue: unknown, from: FieldEntity, fromType: FieldType): unknown {
    if (from.type === 'boolean') return apiValue ? Math.min(1, maxValue(field)) : 0;
    const text = from.type === 'rating' ? String(apiValue ?? 0) : fromType.toText(from, apiValue);
    const n = text === null ? null : pythonFloat(text);
    if (n === null || !Number.isFinite(n)) return 0;
    const rounded = Math.sign(n) * Math.round(Math.abs(n));
    return Math.min(Math.max(rounded, 0), maxValue(field));
  }
}

const maxValue = (field: FieldEntity): number => Number(field.properties.max_value ?? 5);
