import { Injectable } from '@nestjs/common';
import { escapeLike } from '../../../core/database/dialect';
import { quote } from '../../../core/database/sql';
import { ApplicationEntity } from '../../../applications/application.entity';
import { WorkspaceRepository } from '../../../workspaces/workspace.repository';
import type { FieldEntity } from '../field.entity';
import { cellError, ColumnRef, FieldContext, FieldType, RawRow, SearchSource, USERS_SEARCH_SOURCE } from '../field-type';

/**
 * A read-only collaborator field showing a system column of the row (`created_by_id` or
 * `last_modified_by_id`) as `{id, name}`; the field lists the workspace's members as
 * `available_collaborators`. It has no column of its own.
 */
export abstract class SystemUserFieldType implements FieldType {
  abstract readonly type: string;
  protected abstract readonly systemColumn: string;
  readonly readOnly = true;
  readonly canIndex = false;
  readonly properties = {};

  constructor(private readonly workspaces: WorkspaceRepository) {}

  canBePrimary(): boolean {
    return true;
  }

  column(): null {
    return null;
  }

  prepareValue(field: FieldEntity): never {
    throw cellError(`Field of type ${field.type} is read only and should not be set manually.`);
  }

  defaultValue(): null {
    return null;
  }

  async serializeExtra(_field: FieldEntity, ctx: FieldContext): Promise<Record<string, unknown>> {
    const database = await ctx.manager.getRepository(ApplicationEntity).findOneBy({ id: ctx.table.databaseId });
    const members = database ? await this.workspaces.members([database.workspaceId]) : [];
    return { available_collaborators: members.map(({ user }) => ({ id: user.id, name: user.firstName })) };
  }

  async readValues(_field: FieldEntity, rows: RawRow[]): Promise<unknown[]> {
    const ids = rows.map((row) => row[this.systemColumn]).filter((id) => id != null).map(Number);
    const names = await this.workspaces.userNames(ids);
    return rows.map((row) => {
      const id = row[this.systemColumn];
      if (id == null || !names.has(Number(id))) return null;
      return { id: Number(id), name: names.get(Number(id)) };
    });
  }

  toText(_field: FieldEntity, apiValue: unknown): string | null {
    return (apiValue as { name?: string } | null)?.name ?? null;
  }

  /** Exported as the user's name, in every format. */
  exportValue(field: FieldEntity, apiValue: unknown): string | null {
    return this.toText(field, apiValue);
  }

  /** Nothing converts into it: the values come from the row itself. */
  convertFrom(): unknown {
    return null;
  }

  /** The user's name, as Baserow sorts collaborators. */
  private userName(ref: ColumnRef): string {
    return `(SELECT "u"."first_name" FROM "user" "u" WHERE "u"."id" = ${quote(ref.alias)}.${quote(this.systemColumn)})`;
  }

  sortExpression(_field: FieldEntity, ref: ColumnRef): string {
    return this.userName(ref);
  }

  searchCondition(_field: FieldEntity, ref: ColumnRef, term: string): string {
    return ref.sql.dialect.ilike(this.userName(ref), ref.sql.param(`%${escapeLike(term)}%`));
  }

  /** The user's name. */
  searchText(_field: FieldEntity, ref: ColumnRef): string {
    return this.userName(ref);
  }

  searchSources(): SearchSource[] {
    return [USERS_SEARCH_SOURCE];
  }
}

/** `created_by`: the user who created the row. */
@Injectable()
export class CreatedByFieldType extends SystemUserFieldType {
  readonly type = 'created_by';
  protected readonly systemColumn = 'created_by_id';

  constructor(workspaces: WorkspaceRepository) {
    super(workspaces);
  }
}
