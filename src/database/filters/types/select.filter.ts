import type { ImportIds } from '../../serialization/database-document';
import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../fields/field.entity';
import type { FilterContext } from '../filter-type';
import { cellColumn, FieldListFilter, isDigits, negate, NOTHING, pyInt, relationExists } from './support';

/** Comma-separated option ids as Baserow reads them: entries that are only digits, others skipped. */
function optionIdList(value: string): number[] {
  return value
    .split(',')
    .filter(isDigits)
    .map(Number);
}

/** `single_select_equal`: the selected option is the id in the value; a value that is not an integer matches every row. */
@Injectable()
export class SingleSelectEqualFilter extends FieldListFilter {
  importValue(value: string, ids: ImportIds): string {
    return importOptionIds(value, ids);
  }

  readonly type: string = 'single_select_equal';
  protected readonly fieldTypes = ['single_select'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const id = pyInt(value);
    if (id === null) return null;
    return `${cellColumn(field, ctx)} = ${ctx.sql.param(id)}`;
  }
}

/** `single_select_not_equal`: the negation (rows without a selection match). */
@Injectable()
export class SingleSelectNotEqualFilter extends SingleSelectEqualFilter {
  readonly type: string = 'single_select_not_equal';

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    return negate(super.compile(field, value, ctx));
  }
}

/** `single_select_is_any_of`: the selected option is one of the comma-separated ids; no usable id matches nothing. */
@Injectable()
export class SingleSelectIsAnyOfFilter extends FieldListFilter {
  importValue(value: string, ids: ImportIds): string {
    return importOptionIds(value, ids);
  }

  readonly type: string = 'single_select_is_any_of';
  protected readonly fieldTypes = ['single_select'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const text = value.trim();
    if (text === '') return null;
    const ids = optionIdList(text);
    if (!ids.length) return NOTHING;
    return `${cellColumn(field, ctx)} IN ${ctx.sql.list(ids)}`;
  }
}

/** `single_select_is_none_of`: the negation of `single_select_is_any_of`. */
@Injectable()
export class SingleSelectIsNoneOfFilter extends SingleSelectIsAnyOfFilter {
  readonly type: string = 'single_select_is_none_of';

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    return negate(super.compile(field, value, ctx));
  }
}

/** `multiple_select_has`: one of the selected options is one of the comma-separated ids. */
@Injectable()
export class MultipleSelectHasFilter extends FieldListFilter {
  importValue(value: string, ids: ImportIds): string {
    return importOptionIds(value, ids);
  }

  readonly type: string = 'multiple_select_has';
  protected readonly fieldTypes = ['multiple_select'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const text = value.trim();
    if (text === '') return null;
    const ids = optionIdList(text);
    if (!ids.length) return NOTHING;
    return relationExists(field, ctx, ids);
  }
}

/** `multiple_select_has_not`: none of the selected options is one of the ids. */
@Injectable()
export class MultipleSelectHasNotFilter extends MultipleSelectHasFilter {
  readonly type: string = 'multiple_select_has_not';

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    return negate(super.compile(field, value, ctx));
  }
}

/** A comma-separated list of option ids with each id of the document mapped to the import's. */
function importOptionIds(value: string, ids: ImportIds): string {
  return value
    .split(',')
    .map((part) => (/^\s*\d+\s*$/.test(part) ? String(ids.selectOptions.get(Number(part)) ?? part.trim()) : part))
    .join(',');
}
