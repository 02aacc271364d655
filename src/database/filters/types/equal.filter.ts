import { Injectable } from '@nestjs/common';
import { DurationFormat } from '../../fields/values/duration';
import { parseDuration } from '../../fields/values/duration';
import type { FieldEntity } from '../../fields/field.entity';
import type { FilterContext } from '../filter-type';
import { cellColumn, FieldListFilter, negate, NOTHING, pyDecimal, pyInt, TEXT_TYPES } from './support';

/** Django's `BooleanField.to_python` of a string. */
function djangoBoolean(text: string): boolean | null {
  if (['t', 'True', '1'].includes(text)) return true;
  if (['f', 'False', '0'].includes(text)) return false;
  return null;
}

/** Python `uuid.UUID(text)` in canonical form, or null. */
function canonicalUuid(text: string): string | null {
  const hex = text.replace(/^urn:/, '').replace(/^uuid:/, '').replace(/^\{|\}$/g, '').replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) return null;
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The value `equal` compares a cell to, as the field's model field prepares it
 * (`get_prep_value`); undefined when the field cannot take it (Baserow: no row matches).
 */
export function equalValue(field: FieldEntity, value: string): unknown {
  switch (field.type) {
    case 'number':
      return pyDecimal(value) ?? undefined;
    case 'rating':
    case 'autonumber':
      return pyInt(value) ?? undefined;
    case 'boolean':
      return djangoBoolean(value) ?? undefined;
    case 'uuid':
      return canonicalUuid(value) ?? undefined;
    case 'duration': {
      const result = parseDuration(value, (field.properties.duration_format ?? 'h:mm') as DurationFormat);
      return result.ok && result.value !== null ? result.value : undefined;
    }
    default:
      return value;
  }
}

export const EQUAL_TYPES = [...TEXT_TYPES, 'boolean', 'number', 'rating', 'uuid', 'autonumber', 'duration'];

/** `equal`: the cell is the (stripped) value, case-sensitively for text; an empty value matches every row. */
@Injectable()
export class EqualFilter extends FieldListFilter {
  readonly type: string = 'equal';
  protected readonly fieldTypes = EQUAL_TYPES;

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const text = value.trim();
    if (text === '') return null;
    const prepared = equalValue(field, text);
    if (prepared === undefined) return NOTHING;
    const column = field.type === 'uuid' ? ctx.sql.dialect.castText(cellColumn(field, ctx)) : cellColumn(field, ctx);
    return `${column} = ${ctx.sql.param(prepared)}`;
  }
}

/** `not_equal`: the negation of `equal` (empty cells match). */
@Injectable()
export class NotEqualFilter extends EqualFilter {
  readonly type: string = 'not_equal';

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    return negate(super.compile(field, value, ctx));
  }
}
