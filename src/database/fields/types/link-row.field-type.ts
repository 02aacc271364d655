import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiError } from '../../../core/errors/api-error';
import { DatabaseErrors } from '../../database.errors';
import { RowRepository } from '../../rows/row.repository';
import { TableContextService, tableScope } from '../../table-context';
import { PermissionService, TableOperations as T } from '../../../permissions';
import type { TableEntity } from '../../table.entity';
import { TableRepository } from '../../table.repository';
import { FieldEntity } from '../field.entity';
import { quote } from '../../../core/database/sql';
import { CellError, cellError, ColumnRef, FieldContext, FieldType, FieldTypeRegistry, RawRow, RelationSource, rowsTable, SearchSource } from '../field-type';
import { FieldRepository } from '../field.repository';
import { FieldsService } from '../fields.service';
import { joinedText } from './search-text';
import { joinCommaSeparated } from '../values/comma-separated';
import { Junction } from './junction';
import type { FieldDocument, ImportIds } from '../../serialization/database-document';
import { TrashErrors } from '../../../trash/trash.errors';
import { liveRow } from '../../rows/table-schema.repository';

type LinkValue = { id: number; value: string; order: string };

const LinkErrors = {
  tableNotProvided: () => new ApiError('ERROR_LINK_ROW_TABLE_NOT_PROVIDED', 400, 'The `link_row_table_id` must be provided.'),
  notInSameDatabase: () => new ApiError('ERROR_LINK_ROW_TABLE_NOT_IN_SAME_DATABASE', 400, ''),
  selfReferencingRelated: () => new ApiError('ERROR_SELF_REFERENCING_LINK_ROW_CANNOT_HAVE_RELATED_FIELD', 400, ''),
};

/**
 * `link_row`: links to rows of a table of the same database. A relation is one junction
 * table `database_relation_<id>` (`row_a`: rows of the table that created it, `row_b`: rows
 * of the linked table), shared by the field and its related field in the linked table.
 * Stored in the field's properties besides the answered ones: `relation_id`, `side`
 * (`a` or `b`) and `related_field_id`.
 */
@Injectable()
export class LinkRowFieldType implements FieldType {
  readonly type = 'link_row';
  readonly readOnly = false;
  readonly canIndex = false;
  readonly properties = {
    link_row_table_id: { kind: 'int', nullable: true, required: false, default: null },
    link_row_limit_selection_view_id: { kind: 'int', nullable: true, required: false, default: null },
    link_row_multiple_relationships: { kind: 'bool', required: false, default: true },
  } as const;
  readonly writeOnlyProperties = {
    has_related_field: { kind: 'bool', required: false },
    link_row_table: { kind: 'int', nullable: true, required: false },
  } as const;

  constructor(
    private readonly fields: FieldRepository,
    private readonly tables: TableRepository,
    private readonly contexts: TableContextService,
    private readonly rows: RowRepository,
    private readonly registry: FieldTypeRegistry,
    private readonly moduleRef: ModuleRef,
    private readonly permissions: PermissionService,
  ) {}

  private junction(field: FieldEntity): Junction {
    const junction = new Junction(`database_relation_${Number(field.properties.relation_id ?? field.id)}`, 'row_a', 'row_b');
    return field.properties.side === 'b' ? junction.reversed() : junction;
  }

  private linkedTableId(field: FieldEntity): number {
    return Number(field.properties.link_row_table_id);
  }

  private isSelf(field: FieldEntity): boolean {
    return this.linkedTableId(field) === field.tableId;
  }

  canBePrimary(): boolean {
    return false;
  }

  column(): null {
    return null;
  }

  // ------------------------------------------------------------------ field lifecycle

  /** The linked table, checked: it exists, the user is a member, same database. */
  private async checkTable(tableId: number, ctx: FieldContext): Promise<TableEntity> {
    const access = await this.tables.findAccess(tableId, ctx.userId ?? 0);
    if (!access) throw DatabaseErrors.tableDoesNotExist();
    if (ctx.userId !== null) await this.permissions.require(ctx.userId, T.read, tableScope(access.table, access.workspaceId));
    if (access.table.databaseId !== ctx.table.databaseId) throw LinkErrors.notInSameDatabase();
    return access.table;
  }

  /** The table's name, or `<name> 2`, `<name> 3`… when a field of the target table has it. */
  private async freeName(tableId: number, name: string, exceptId: number | null): Promise<string> {
    const taken = new Set((await this.fields.ofTable(tableId)).filter((f) => f.id !== exceptId).map((f) => f.name));
    const base = name.slice(0, 240);
    if (!taken.has(base) && !['id', 'order'].includes(base)) return base;
    for (let i = 2; ; i++) if (!taken.has(`${base} ${i}`)) return `${base} ${i}`;
  }

  private async createRelated(field: FieldEntity, ctx: FieldContext): Promise<FieldEntity> {
    const tableId = this.linkedTableId(field);
    const related = await this.fields.create({
      tableId,
      name: await this.freeName(tableId, ctx.table.name, null),
      type: this.type,
      primary: false,
      order: (await this.fields.maxOrder(tableId)) + 1,
      properties: {
        link_row_table_id: field.tableId,
        link_row_limit_selection_view_id: null,
        link_row_multiple_relationships: true,
        relation_id: field.properties.relation_id,
        side: 'b',
        related_field_id: field.id,
      },
    });
    await this.tables.bump(tableId, 'fields_version');
    field.properties.related_field_id = related.id;
    return related;
  }

  private async liveRelated(field: FieldEntity): Promise<FieldEntity | null> {
    const id = field.properties.related_field_id;
    if (id == null) return null;
    const related = await this.fields.findLive(Number(id));
    return related && related.type === this.type ? related : null;
  }

  private async trash(related: FieldEntity): Promise<void> {
    await this.fields.save({ ...related, trashed: true });
    await this.tables.bump(related.tableId, 'fields_version');
  }

  async afterSave(field: FieldEntity, input: Record<string, unknown>, ctx: FieldContext, previous: FieldEntity | null): Promise<FieldEntity[]> {
    const wasLink = previous?.type === this.type;
    const given = input.link_row_table_id ?? input.link_row_table;
    const tableId = given ?? (wasLink ? previous.properties.link_row_table_id : null);
    if (tableId === null || tableId === undefined) throw LinkErrors.tableNotProvided();
    await this.checkTable(Number(tableId), ctx);
    field.properties.link_row_table_id = Number(tableId);
    const self = this.isSelf(field);
    if (self && input.has_related_field === true) throw LinkErrors.selfReferencingRelated();
    const wantsRelated = !self && input.has_related_field !== false;

    if (!wasLink) {
      Object.assign(field.properties, { relation_id: field.id, side: 'a', related_field_id: null });
      return wantsRelated ? [await this.createRelated(field, ctx)] : [];
    }

    const tableChanged = Number(previous.properties.link_row_table_id) !== field.properties.link_row_table_id;
    const related = await this.liveRelated(previous);
    if (tableChanged && previous.properties.side === 'b') {
      // The related side pointed elsewhere: it becomes a relation of its own.
      Object.assign(field.properties, { relation_id: field.id, side: 'a', related_field_id: null });
      return wantsRelated ? [await this.createRelated(field, ctx)] : [];
    }
    if (related && (!wantsRelated || (tableChanged && self))) {
      await this.trash(related);
      field.properties.related_field_id = null;
      return [related];
    }
    if (related && tableChanged) {
      const moved = { ...related, tableId: field.properties.link_row_table_id, name: await this.freeName(field.properties.link_row_table_id, ctx.table.name, related.id) };
      await this.fields.save(moved);
      // FieldRepository.save leaves `table_id` alone: the related field moves tables here.
      await ctx.manager.getRepository(FieldEntity).update(moved.id, { tableId: moved.tableId });
      await this.tables.bump(related.tableId, 'fields_version');
      await this.tables.bump(moved.tableId, 'fields_version');
      return [moved as FieldEntity];
    }
    if (!related && wantsRelated && (tableChanged || input.has_related_field === true)) return [await this.createRelated(field, ctx)];
    return [];
  }

  needsConversion(previous: FieldEntity, field: FieldEntity): boolean {
    return previous.properties.link_row_table_id !== field.properties.link_row_table_id || previous.properties.relation_id !== field.properties.relation_id;
  }

  async createStorage(field: FieldEntity, ctx: FieldContext): Promise<void> {
    if (field.properties.side !== 'b') await this.junction(field).create(ctx);
  }

  /**
   * The field stops being this link (type or table change, or deletion for good): the
   * owner side drops the junction and, when the field is no longer a link, trashes its
   * related field; the related side only detaches from the owner.
   */
  async dropStorage(previous: FieldEntity, ctx: FieldContext): Promise<void> {
    const current = await this.fields.findLive(previous.id);
    const related = await this.liveRelated(previous);
    if (previous.properties.side === 'b') {
      if (related && related.properties.related_field_id === previous.id) {
        await this.fields.save({ ...related, properties: { ...related.properties, related_field_id: null } });
        await this.tables.bump(related.tableId, 'fields_version');
      }
      return;
    }
    await this.junction(previous).drop(ctx);
    if (related && current?.type !== this.type) await this.trash(related);
  }

  /** A link to a table still in the trash cannot come back before that table. */
  async beforeRestore(field: FieldEntity): Promise<void> {
    if (!(await this.tables.findAccess(this.linkedTableId(field), 0))) throw TrashErrors.relatedTableTrashed();
  }

  async beforeDelete(field: FieldEntity): Promise<FieldEntity[]> {
    const related = await this.liveRelated(field);
    if (!related) return [];
    await this.trash(related);
    return [related];
  }

  // ------------------------------------------------------------------ import (duplication, templates)

  /**
   * The linked table mapped to the import's (a self link links the new table; a table outside
   * the document stays when the import keeps foreign tables, else the field is left out). A
   * related field is made when the document has one (or names a foreign one); the document's
   * `relation_id`, `side` and `related_field_id` are replaced by `afterSave`. The related
   * side itself is made by its other side.
   */
  importInput(doc: FieldDocument, ids: ImportIds, tableId: number): Record<string, unknown> | null {
    const p = doc.properties;
    const target = ids.table(Number(p.link_row_table_id ?? p.link_row_table));
    if (target === undefined) return null;
    const self = target === tableId;
    const related = typeof p.has_related_field === 'boolean' ? p.has_related_field : p.related_field_id != null;
    return { link_row_table_id: target, link_row_limit_selection_view_id: null, has_related_field: !self && related };
  }

  /**
   * The view limiting the selection stays when the linked table is the same one (a table or
   * field copied within its database); a view of a table the import created anew is dropped
   * (views are imported after fields).
   */
  importedProperties(doc: FieldDocument, ids: ImportIds): Record<string, unknown> | null {
    const view = doc.properties.link_row_limit_selection_view_id;
    if (view == null) return null;
    const linked = Number(doc.properties.link_row_table_id ?? doc.properties.link_row_table);
    return { link_row_limit_selection_view_id: ids.keepForeign && ids.table(linked) === linked ? view : null };
  }

  /** Cells are kept as the linked row ids (rows keep their ids in an import). */
  exportCell(_field: FieldEntity, apiValue: unknown): number[] {
    return ((apiValue as LinkValue[] | null) ?? []).map((v) => v.id);
  }

  async serializeExtra(field: FieldEntity): Promise<Record<string, unknown>> {
    const related = field.properties.related_field_id ?? null;
    return {
      link_row_table: field.properties.link_row_table_id ?? null,
      link_row_related_field_id: related,
      link_row_related_field: related,
      link_row_table_primary_field: await this.primaryFieldJson(this.linkedTableId(field)),
    };
  }

  private async primaryFieldJson(tableId: number): Promise<Record<string, unknown> | null> {
    const access = await this.tables.findAccess(tableId, 0);
    if (!access) return null;
    const context = await this.contexts.withFields(access.table, access.workspaceId);
    const primary = context.fields.find((f) => f.primary);
    if (!primary) return null;
    return this.moduleRef.get(FieldsService, { strict: false }).serialize(primary, context);
  }

  // ------------------------------------------------------------------ cells

  /** Row ids, primary texts, one id, or a comma-separated string; unknown ids are dropped. */
  async prepareValue(field: FieldEntity, value: unknown): Promise<number[]> {
    if (value === null || value === undefined || value === '') return [];
    let items: unknown[];
    if (Array.isArray(value)) items = value;
    else if (typeof value === 'string')
      items = value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
    else items = [value];
    const ids: number[] = [];
    const names: string[] = [];
    for (const item of items) {
      if (typeof item === 'number' && Number.isInteger(item)) ids.push(item);
      else if (typeof item === 'string' && /^\d+$/.test(item.trim())) ids.push(Number(item));
      else if (typeof item === 'string') names.push(item);
      else throw cellError('The provided value should be a list of row ids or row primary field values.', 'invalid');
    }
    if (ids.length && names.length) throw cellError('The provided value should be a list of row ids or row primary field values.', 'invalid');
    const tableId = this.linkedTableId(field);
    let result: number[];
    if (names.length) {
      const byText = await this.idsByPrimaryText(tableId, names);
      result = names.map((name) => {
        const id = byText.get(name);
        if (id === undefined) throw new CellError(`The provided text value '${name}' doesn't match any row in the linked table.`);
        return id;
      });
    } else {
      const existing = new Set((await this.rows.findByIds(tableId, [...new Set(ids)])).map((r) => Number(r.id)));
      result = ids.filter((id) => existing.has(id));
    }
    result = [...new Set(result)];
    if (field.properties.link_row_multiple_relationships === false && result.length > 1) {
      throw cellError('Ensure this field has no more than 1 elements.', 'max_length');
    }
    return result;
  }

  /** The first row (by order) whose primary text is each of `names`. */
  private async idsByPrimaryText(tableId: number, names: string[]): Promise<Map<string, number>> {
    const wanted = new Set(names);
    const found = new Map<string, number>();
    const access = await this.tables.findAccess(tableId, 0);
    if (!access) return found;
    const context = await this.contexts.withFields(access.table, access.workspaceId);
    const primary = context.fields.find((f) => f.primary);
    if (!primary) return found;
    const type = this.registry.of(primary);
    const ctx = this.contexts.fieldContext(context, null);
    for await (const batch of this.rows.scan(tableId, { liveOnly: true })) {
      const values = await type.readValues(primary, batch, ctx);
      batch.forEach((row, i) => {
        const text = type.toText(primary, values[i]) ?? '';
        if (wanted.has(text) && !found.has(text)) found.set(text, Number(row.id));
      });
      if (found.size === wanted.size) break;
    }
    return found;
  }

  defaultValue(): number[] {
    return [];
  }

  async writeRelations(field: FieldEntity, rows: { id: number; value: unknown }[], ctx: FieldContext): Promise<void> {
    await this.junction(field).write(ctx, rows);
  }

  async deleteRelations(field: FieldEntity, rowIds: number[], ctx: FieldContext): Promise<void> {
    const junction = this.junction(field);
    await junction.deleteWhere(ctx, junction.owner, rowIds);
    if (this.isSelf(field)) await junction.deleteWhere(ctx, junction.target, rowIds);
  }

  /** One query for the pairs of all rows, one for the linked rows, then their primary texts. */
  async readValues(field: FieldEntity, rows: RawRow[], ctx: FieldContext): Promise<LinkValue[][]> {
    const tableId = this.linkedTableId(field);
    const byRow = await this.junction(field).read(
      ctx,
      rows.map((r) => Number(r.id)),
      { table: rowsTable(tableId) },
    );
    const targetIds = [...new Set([...byRow.values()].flat())];
    const linked = new Map<number, LinkValue>();
    if (targetIds.length) {
      const raw = await this.rows.findByIds(tableId, targetIds);
      const access = await this.tables.findAccess(tableId, 0);
      const context = access ? await this.contexts.withFields(access.table, access.workspaceId) : null;
      const primary = context?.fields.find((f) => f.primary);
      let texts: (string | null)[] = raw.map((row) => `unnamed row ${row.id}`);
      if (primary && context) {
        const type = this.registry.of(primary);
        const values = await type.readValues(primary, raw, this.contexts.fieldContext(context, null));
        texts = values.map((v) => type.toText(primary, v) ?? '');
      }
      raw.forEach((row, i) => linked.set(Number(row.id), { id: Number(row.id), value: texts[i] ?? '', order: ctx.dialect.orderText(row.order) }));
    }
    return rows.map((row) =>
      (byRow.get(Number(row.id)) ?? [])
        .map((id) => linked.get(id))
        .filter((v) => !!v)
        .map((v) => ({ ...v! })),
    );
  }

  toText(_field: FieldEntity, apiValue: unknown): string | null {
    const values = ((apiValue as LinkValue[] | null) ?? []).map((v) => v.value);
    return values.length ? values.join(', ') : null;
  }

  /** Exported as the linked rows' primary values: a list (JSON, XML) or Baserow's comma-separated text (CSV, Excel). */
  exportValue(_field: FieldEntity, apiValue: unknown, rich: boolean): unknown {
    const values = ((apiValue as LinkValue[] | null) ?? []).map((v) => v.value);
    return rich ? values : joinCommaSeparated(values.map((value) => value ?? ''));
  }

  historyValue(_field: FieldEntity, apiValue: unknown): number[] {
    return ((apiValue as LinkValue[] | null) ?? []).map((v) => v.id);
  }

  /** The linked rows' primary values, and where the other side lives (its history is recorded too). */
  historyMetadata(field: FieldEntity, apiValues: unknown[]): Record<string, unknown> {
    const linked: Record<string, { value: string }> = {};
    for (const value of apiValues) for (const row of (value as LinkValue[] | null) ?? []) linked[String(row.id)] = { value: row.value };
    const related = field.properties.related_field_id;
    return { linked_rows: linked, linked_table_id: this.linkedTableId(field), linked_field_id: related == null ? null : Number(related) };
  }

  /** Links to the same table are kept; to another table they are dropped; text is matched by primary value. */
  convertFrom(field: FieldEntity, apiValue: unknown, from: FieldEntity): unknown {
    if (from.type !== this.type) return undefined;
    if (Number(from.properties.link_row_table_id) !== this.linkedTableId(field)) return null;
    return ((apiValue as LinkValue[]) ?? []).map((v) => v.id);
  }

  sortExpression(): string | null {
    return null;
  }

  /** Compat search: a linked row's primary value contains the term. */
  searchCondition(field: FieldEntity, ref: ColumnRef, term: string): string | null {
    const source = this.relationSource(field, ref);
    const j = quote(`js_${field.id}`);
    const condition = source.targetContains(`${j}.${source.targetColumn}`, term);
    if (!condition) return null;
    return `EXISTS (SELECT 1 FROM ${source.from} ${j} WHERE ${j}.${source.rowColumn} = ${quote(ref.alias)}."id" AND ${condition})`;
  }

  /** The linked rows' primary values (as their type searches them), in the cell's order, joined by spaces; trashed rows left out. */
  searchText(field: FieldEntity, ref: ColumnRef): string | null {
    const linkedId = this.linkedTableId(field);
    const primary = ref.tables?.get(linkedId)?.fields.find((f) => f.primary);
    if (!primary) return null;
    const alias = `sl_${field.id}`;
    const { relation } = this.junction(field).relation(ref.alias, alias, rowsTable(linkedId));
    relation.where.push(liveRow(`${alias}_x`));
    const text = this.registry.of(primary).searchText(primary, { alias: `${alias}_x`, sql: ref.sql, tables: ref.tables });
    return text ? joinedText(relation, text, `sla_${field.id}`, ref) : null;
  }

  /** The junction, and the linked table (and what its primary value reads) through it. */
  searchSources(field: FieldEntity, ref: ColumnRef): SearchSource[] {
    const junction = this.junction(field);
    const linkedId = this.linkedTableId(field);
    const via = { table: junction.table, from: junction.target, to: junction.owner };
    const sources: SearchSource[] = [junction.searchSource(), { table: rowsTable(linkedId), column: 'id', via }];
    const primary = ref.tables?.get(linkedId)?.fields.find((f) => f.primary);
    for (const source of (primary && this.registry.of(primary).searchSources?.(primary, ref)) || []) if (!source.via) sources.push({ ...source, via });
    return sources;
  }

  /**
   * The relation's junction from this field's side; `targetContains` matches linked rows
   * whose primary value contains a term (through the primary field type's search).
   */
  relationSource(field: FieldEntity, ref: ColumnRef): RelationSource & { targetContains(targetId: string, term: string): string | null } {
    const junction = this.junction(field);
    const linkedId = this.linkedTableId(field);
    // Links to trashed rows stay (a restore brings them back) but match nothing meanwhile.
    const live = `(SELECT jl.* FROM ${quote(junction.table)} jl JOIN ${quote(rowsTable(linkedId))} xl ON xl."id" = jl.${quote(junction.target)} WHERE ${liveRow('xl')})`;
    return {
      ...junction.source(),
      from: live,
      targetContains: (targetId, term) => {
        const primary = ref.tables?.get(linkedId)?.fields.find((f) => f.primary);
        if (!primary) return null;
        const alias = `lt_${field.id}`;
        const condition = this.registry.of(primary).searchCondition(primary, { alias, sql: ref.sql, tables: ref.tables }, term);
        if (!condition) return null;
        return `EXISTS (SELECT 1 FROM ${quote(rowsTable(linkedId))} ${quote(alias)} WHERE ${quote(alias)}."id" = ${targetId} AND ${liveRow(alias)} AND ${condition})`;
      },
    };
  }
}
