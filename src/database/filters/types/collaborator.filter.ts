import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../fields/field.entity';
import type { FilterContext } from '../filter-type';
import { cellColumn, FieldListFilter, negate, pyInt, relationExists } from './support';

/** `multiple_collaborators_has`: the user id in the value is one of the collaborators; not an integer matches every row. */
@Injectable()
export class MultipleCollaboratorsHasFilter extends FieldListFilter {
  readonly type: string = 'multiple_collaborators_has';
  protected readonly fieldTypes = ['multiple_collaborators'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const id = pyInt(value);
    if (id === null) return null;
    return relationExists(field, ctx, [id]);
  }
}

@Injectable()
export class MultipleCollaboratorsHasNotFilter extends MultipleCollaboratorsHasFilter {
  readonly type: string = 'multiple_collaborators_has_not';

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    return negate(super.compile(field, value, ctx));
  }
}

/** `user_is`: created_by / last_modified_by is the user id in the value; not an integer matches every row. */
@Injectable()
export class UserIsFilter extends FieldListFilter {
  readonly type: string = 'user_is';
  protected readonly fieldTypes = ['created_by', 'last_modified_by'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const id = pyInt(value);
    if (id === null) return null;
    return `${cellColumn(field, ctx)} = ${ctx.sql.param(id)}`;
  }
}

/** `user_is_not`: the negation (rows without a user match). */
@Injectable()
export class UserIsNotFilter extends UserIsFilter {
  readonly type: string = 'user_is_not';

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    return negate(super.compile(field, value, ctx));
  }
}
