import { Injectable } from '@nestjs/common';
import { quote } from '../../../core/database/sql';
import type { FieldEntity } from '../../fields/field.entity';
import { formulaDialect } from '../../formula/formula-dialect';
import { COMPUTED_TYPES, storedFormulaType } from '../../formula/stored-type';
import { fileExists } from '../../fields/types/file.field-type';
import type { FilterContext } from '../filter-type';
import { cellColumn, FieldListFilter, negate, relationExists, TEXT_TYPES } from './support';

const RELATION_TYPES = ['link_row', 'multiple_select', 'multiple_collaborators'];

/**
 * Computed results that filters see as the computed field itself (the others are filtered
 * as the plain field of their result): arrays, and link and button objects.
 */
const COMPUTED_RESULTS = ['array', 'link', 'button'];

const computedResult = (field: FieldEntity): string | null => {
  if (!COMPUTED_TYPES.has(field.type)) return null;
  const name = storedFormulaType(field).name;
  return COMPUTED_RESULTS.includes(name) ? name : null;
};

/** An array with no item (or NULL); a link or button without a URL. */
function computedEmpty(field: FieldEntity, result: string, ctx: FilterContext): string {
  const db = formulaDialect(ctx.sql.dialect);
  const column = cellColumn(field, ctx);
  if (result === 'array') return `NOT EXISTS (SELECT 1 FROM ${db.storedArray(column, quote(`empty_${field.id}`)).relation.from})`;
  return `(${column} IS NULL OR COALESCE(${db.jsonGetText(column, 'url')}, '') = '')`;
}

/**
 * `empty`: no value. Text is NULL or '', a boolean is false, a relation has no rows, a
 * formula array has no items, a link or button formula no URL, anything else is NULL.
 * The value is ignored.
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
    'file',
  ];

  compatible(field: FieldEntity): boolean {
    return super.compatible(field) || computedResult(field) !== null;
  }

  compile(field: FieldEntity, _value: string, ctx: FilterContext): string | null {
    const result = computedResult(field);
    if (result) return computedEmpty(field, result, ctx);
    if (RELATION_TYPES.includes(field.type)) return `NOT ${relationExists(field, ctx)}`;
    if (field.type === 'file') return `NOT ${fileExists(field, ctx.alias, ctx.sql.dialect)}`;
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
