import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../fields/field.entity';
import type { FilterContext } from '../filter-type';
import { cellColumn, FieldListFilter, negate, relationExists, TEXT_TYPES } from './support';

const RELATION_TYPES = ['link_row', 'multiple_select', 'multiple_collaborators'];

/**
 * `empty`: no value. Text is NULL or '', a boolean is false, a relation has no rows,
 * anything else is NULL. The value is ignored.
 */
@Injectable()
export class EmptyFilter extends FieldListFilter {
  readonly type: string = 'empty';
  protected readonly fieldTypes = [
    ...TEXT_TYPES,
    'number',
    'rating',
    'boolean',
    'date',
    'last_modified',
    'created_on',
    'link_row',
    'single_select',
    'multiple_select',
    'multiple_collaborators',
    'duration',
    'password',
  ];

  compile(field: FieldEntity, _value: string, ctx: FilterContext): string | null {
    if (RELATION_TYPES.includes(field.type)) return `NOT ${relationExists(field, ctx)}`;
    const column = cellColumn(field, ctx);
    if (field.type === 'boolean') return `${column} = ${ctx.sql.param(false)}`;
    if (TEXT_TYPES.includes(field.type) || field.type === 'password') return `(${column} IS NULL OR ${column} = '')`;
    return `${column} IS NULL`;
  }
}

/** `not_empty`: the negation of `empty`. */
@Injectable()
export class NotEmptyFilter extends EmptyFilter {
  readonly type: string = 'not_empty';

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    return negate(super.compile(field, value, ctx));
  }
}
