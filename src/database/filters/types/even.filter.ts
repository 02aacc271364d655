import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../fields/field.entity';
import type { FilterContext } from '../filter-type';
import { cellColumn, FieldListFilter } from './support';

/** `is_even_and_whole`: the number is whole and even; the value is ignored, empty cells never match. */
@Injectable()
export class IsEvenAndWholeFilter extends FieldListFilter {
  readonly type = 'is_even_and_whole';
  protected readonly fieldTypes = ['number', 'autonumber'];

  compile(field: FieldEntity, _value: string, ctx: FilterContext): string {
    const column = cellColumn(field, ctx);
    return `(${column} = FLOOR(${column}) AND ${column} % 2 = 0)`;
  }
}
