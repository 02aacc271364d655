import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../fields/field.entity';
import type { FilterContext } from '../filter-type';
import { cellColumn, FieldListFilter } from './support';

const TRUE_VALUES = ['y', 't', 'o', 'yes', 'true', 'on', '1'];

/** `boolean`: the cell equals the value read as a boolean; anything not truthy (the empty value too) is false. */
@Injectable()
export class BooleanFilter extends FieldListFilter {
  readonly type = 'boolean';
  protected readonly fieldTypes = ['boolean'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string {
    const wanted = TRUE_VALUES.includes(value.trim().toLowerCase());
    return `${cellColumn(field, ctx)} = ${ctx.sql.param(wanted)}`;
  }
}
