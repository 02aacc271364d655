import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../fields/field.entity';
import type { FilterContext } from '../filter-type';
import { cellColumn, FieldListFilter, NOTHING, pyInt, TEXT_TYPES } from './support';

/**
 * `length_is_lower_than`: the text has fewer characters than the value. Baserow parses the
 * value with `int()` and matches nothing when it fails (the empty value included); empty
 * cells never match.
 */
@Injectable()
export class LengthIsLowerThanFilter extends FieldListFilter {
  readonly type = 'length_is_lower_than';
  protected readonly fieldTypes = TEXT_TYPES;

  compile(field: FieldEntity, value: string, ctx: FilterContext): string {
    const limit = pyInt(value);
    if (limit === null) return NOTHING;
    return `length(${cellColumn(field, ctx)}) < ${ctx.sql.param(limit)}`;
  }
}
