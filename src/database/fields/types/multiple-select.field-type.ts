import { Injectable } from '@nestjs/common';
import { quote } from '../../../core/database/sql';
import type { FieldEntity } from '../field.entity';
import { cellError, ColumnRef, FieldContext, FieldType, RawRow, RelationSource, SearchSource } from '../field-type';
import { FieldRepository } from '../field.repository';
import { Junction } from './junction';
import { joinedText, optionValueText } from './search-text';
import { joinCommaSeparated } from '../values/comma-separated';
import {
  optionJson,
  OptionJson,
  optionSearchSql,
  optionsOf,
  resolveOptions,
  SELECT_OPTIONS_SPEC,
  syncSelectOptions,
  historySelectOptions,
} from './select-options';
import type { FieldDocument, ImportIds } from '../../serialization/database-document';

/** `multiple_select`: an ordered list of the field's options, in `database_multipleselect_<field id>`. */
@Injectable()
export class MultipleSelectFieldType implements FieldType {
  readonly type = 'multiple_select';
  readonly readOnly = false;
  readonly canIndex = false;
  readonly properties = {
    multiple_select_default: { kind: 'list', of: { kind: 'int' }, nullable: true, required: false, default: null },
  } as const;
  readonly writeOnlyProperties = SELECT_OPTIONS_SPEC;

  constructor(private readonly fields: FieldRepository) {}

  private junction(field: FieldEntity): Junction {
    return new Junction(`database_multipleselect_${field.id}`, 'row_id', 'option_id');
  }

  canBePrimary(): boolean {
    return true;
  }

  column(): null {
    return null;
  }

  async afterSave(field: FieldEntity, input: Record<string, unknown>, ctx: FieldContext, previous: FieldEntity | null): Promise<FieldEntity[]> {
    const { deleted } = await syncSelectOptions(field, input, ctx, this.fields);
    if (deleted.length && previous?.type === this.type) await this.junction(field).deleteWhere(ctx, 'option_id', deleted);
    const fallback = field.properties.multiple_select_default as number[] | null;
    if (fallback) {
      const ids = new Set(optionsOf(field, ctx).map((o) => o.id));
      const kept = fallback.filter((id) => ids.has(id));
      field.properties.multiple_select_default = kept.length ? kept : null;
    }
    return [];
  }

  async createStorage(field: FieldEntity, ctx: FieldContext): Promise<void> {
    await this.junction(field).create(ctx);
  }

  async dropStorage(field: FieldEntity, ctx: FieldContext): Promise<void> {
    await this.junction(field).drop(ctx);
  }

  /** The default options, mapped to the imported field's. */
  importedProperties(doc: FieldDocument, ids: ImportIds): Record<string, unknown> | null {
    const list = doc.properties.multiple_select_default as number[] | null;
    if (!list) return null;
    const mapped = list.map((id) => ids.selectOptions.get(id)).filter((id) => id !== undefined);
    return { multiple_select_default: mapped.length ? mapped : null };
  }

  /** Cells are kept as option ids. */
  exportCell(_field: FieldEntity, apiValue: unknown): number[] {
    return ((apiValue as OptionJson[] | null) ?? []).map((o) => o.id);
  }

  /** Option ids of the document (mapped; unknown ones dropped), or option values. */
  importCell(field: FieldEntity, value: unknown, ids: ImportIds, ctx: FieldContext): number[] {
    const items = Array.isArray(value) ? value.flatMap((item) => (typeof item === 'number' ? (ids.selectOptions.has(item) ? [ids.selectOptions.get(item)!] : []) : [item])) : value;
    return this.prepareValue(field, items, ctx);
  }

  async serializeExtra(field: FieldEntity, ctx: FieldContext): Promise<Record<string, unknown>> {
    return { select_options: optionsOf(field, ctx).map(optionJson) };
  }

  /** A list of option ids or values, or a comma-separated string of them. */
  prepareValue(field: FieldEntity, value: unknown, ctx: FieldContext): number[] {
    if (value === null || value === undefined) return [];
    let items: unknown[];
    if (typeof value === 'string') items = value.split(',').map((v) => v.trim()).filter((v) => v !== '');
    else if (Array.isArray(value)) items = value;
    else if (typeof value === 'number') items = [value];
    else throw cellError(`Expected a list of items but got type "${typeof value === 'object' ? 'dict' : typeof value}".`, 'not_a_list');
    return resolveOptions(field, items, ctx);
  }

  defaultValue(field: FieldEntity, ctx: FieldContext): number[] {
    const ids = new Set(optionsOf(field, ctx).map((o) => o.id));
    return ((field.properties.multiple_select_default as number[] | null) ?? []).filter((id) => ids.has(id));
  }

  async writeRelations(field: FieldEntity, rows: { id: number; value: unknown }[], ctx: FieldContext): Promise<void> {
    await this.junction(field).write(ctx, rows);
  }

  async deleteRelations(field: FieldEntity, rowIds: number[], ctx: FieldContext): Promise<void> {
    await this.junction(field).deleteWhere(ctx, 'row_id', rowIds);
  }

  async readValues(field: FieldEntity, rows: RawRow[], ctx: FieldContext): Promise<OptionJson[][]> {
    const byRow = await this.junction(field).read(
      ctx,
      rows.map((r) => Number(r.id)),
    );
    const options = new Map(optionsOf(field, ctx).map((o) => [o.id, o]));
    return rows.map((row) =>
      (byRow.get(Number(row.id)) ?? [])
        .map((id) => options.get(id))
        .filter((o) => !!o)
        .map((o) => optionJson(o!)),
    );
  }

  toText(_field: FieldEntity, apiValue: unknown): string | null {
    const values = ((apiValue as OptionJson[] | null) ?? []).map((o) => o.value);
    return values.length ? values.join(', ') : null;
  }

  /** Exported as the options' values: a list (JSON, XML) or Baserow's comma-separated text (CSV, Excel). */
  exportValue(_field: FieldEntity, apiValue: unknown, rich: boolean): unknown {
    const values = ((apiValue as OptionJson[] | null) ?? []).map((o) => o.value);
    return rich ? values : joinCommaSeparated(values);
  }

  historyValue(_field: FieldEntity, apiValue: unknown): number[] {
    return ((apiValue as OptionJson[] | null) ?? []).map((o) => o.id);
  }

  historyMetadata(_field: FieldEntity, apiValues: unknown[]): Record<string, unknown> {
    return historySelectOptions(apiValues);
  }

  /** A single select's option stays selected; values of other types are matched by text. */
  convertFrom(_field: FieldEntity, apiValue: unknown, from: FieldEntity): unknown {
    if (from.type === 'single_select') return apiValue ? [(apiValue as OptionJson).id] : [];
    if (from.type === this.type) return ((apiValue as OptionJson[]) ?? []).map((o) => o.id);
    return undefined;
  }

  /** Its options' values item by item, in the cell's order (Baserow orders by the values joined by commas). */
  sortExpression(field: FieldEntity, ref: ColumnRef): string | null {
    const j = quote(`mss_${field.id}_j`);
    const x = quote(`mss_${field.id}_x`);
    const from = `${quote(this.junction(field).table)} ${j} JOIN ${quote('database_select_option')} ${x} ON ${x}."id" = ${j}."option_id"`;
    return ref.sql.dialect.textListSortKey(from, `${j}."row_id" = ${quote(ref.alias)}."id"`, `${j}."id"`, `${x}."value"`);
  }

  /** Grouped by its options' ids in the cell's order (Baserow's ManyToManyGroupByMixin). */
  readonly groupKey = {
    expression: (field: FieldEntity, ref: ColumnRef): string => {
      const j = quote(`msg_${field.id}_j`);
      const from = `${quote(this.junction(field).table)} ${j} JOIN ${quote('database_select_option')} ${quote(`msg_${field.id}_x`)} ON ${quote(`msg_${field.id}_x`)}."id" = ${j}."option_id"`;
      return ref.sql.dialect.idListKey(from, `${j}."row_id" = ${quote(ref.alias)}."id"`, `${j}."id"`, `${j}."option_id"`);
    },
    ofValue: (apiValue: unknown): string | null => (Array.isArray(apiValue) && apiValue.length ? apiValue.map((o: { id: number }) => o.id).join(',') : null),
  };

  searchCondition(field: FieldEntity, ref: ColumnRef, term: string): string | null {
    return this.junction(field).exists(ref.alias, 'database_select_option', optionSearchSql(ref, term));
  }

  /** The options' values, in the cell's order, joined by spaces. */
  searchText(field: FieldEntity, ref: ColumnRef): string {
    const { relation } = this.junction(field).relation(ref.alias, `ms_${field.id}`, 'database_select_option');
    return joinedText(relation, optionValueText(relation.id, field.id, ref), `msa_${field.id}`, ref);
  }

  searchSources(field: FieldEntity): SearchSource[] {
    return [this.junction(field).searchSource()];
  }

  relationSource(field: FieldEntity): RelationSource {
    return this.junction(field).source();
  }
}
