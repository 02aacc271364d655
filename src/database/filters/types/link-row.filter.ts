import { Injectable } from '@nestjs/common';
import { quote } from '../../../core/database/sql';
import type { FieldEntity } from '../../fields/field.entity';
import type { FilterContext } from '../filter-type';
import { FieldListFilter, negate, pyInt, relationExists, relationOf } from './support';

/** `link_row_has`: the row links to the row id in the value; a value that is not an integer matches every row. */
@Injectable()
export class LinkRowHasFilter extends FieldListFilter {
  readonly type: string = 'link_row_has';
  protected readonly fieldTypes = ['link_row'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const id = pyInt(value);
    if (id === null) return null;
    return relationExists(field, ctx, [id]);
  }
}

/** `link_row_has_not`: the row does not link to that row. */
@Injectable()
export class LinkRowHasNotFilter extends LinkRowHasFilter {
  readonly type: string = 'link_row_has_not';

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    return negate(super.compile(field, value, ctx));
  }
}

/**
 * `link_row_contains`: one of the linked rows' primary values contains the value
 * (case-insensitively); an empty value matches every row.
 */
@Injectable()
export class LinkRowContainsFilter extends FieldListFilter {
  readonly type: string = 'link_row_contains';
  protected readonly fieldTypes = ['link_row'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const term = value.trim();
    if (term === '') return null;
    const source = relationOf(field, ctx);
    const j = quote(`j_${field.id}`);
    const condition = source.targetContains?.(`${j}.${source.targetColumn}`, term);
    if (!condition) return null;
    return `EXISTS (SELECT 1 FROM ${source.from} ${j} WHERE ${j}.${source.rowColumn} = ${quote(ctx.alias)}."id" AND ${condition})`;
  }
}

/** `link_row_not_contains`: no linked row's primary value contains the value. */
@Injectable()
export class LinkRowNotContainsFilter extends LinkRowContainsFilter {
  readonly type: string = 'link_row_not_contains';

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    return negate(super.compile(field, value, ctx));
  }
}
