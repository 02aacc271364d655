import { Injectable } from '@nestjs/common';
import type { ColumnDefinition } from '../../../core/database/dialect';
import { quote, Sql } from '../../../core/database/sql';
import type { FieldEntity } from '../field.entity';
import { ColumnRef, FieldContext, FieldType, fieldColumn, rowsTable } from '../field-type';
import { FieldRepository } from '../field.repository';
import { ColumnFieldType, columnOf } from './base';
import { optionValueText } from './search-text';
import {
  optionJson,
  OptionJson,
  optionSearchSql,
  optionsOf,
  optionValueSql,
  resolveOptions,
  SELECT_OPTIONS_SPEC,
  syncSelectOptions,
  historySelectOptions,
} from './select-options';
import type { FieldDocument, ImportIds } from '../../serialization/database-document';

/** `single_select`: the id of one of the field's options, in an integer column. */
@Injectable()
export class SingleSelectFieldType extends ColumnFieldType {
  readonly type = 'single_select';
  readonly canIndex = false;
  readonly properties = {
    single_select_default: { kind: 'int', nullable: true, required: false, default: null },
  } as const;
  readonly writeOnlyProperties = SELECT_OPTIONS_SPEC;

  constructor(private readonly fields: FieldRepository) {
    super();
  }

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'integer' };
  }

  async afterSave(field: FieldEntity, input: Record<string, unknown>, ctx: FieldContext, previous: FieldEntity | null): Promise<FieldEntity[]> {
    const { deleted } = await syncSelectOptions(field, input, ctx, this.fields);
    // Cells pointing at a deleted option become empty.
    if (deleted.length && previous?.type === this.type) {
      const sql = new Sql(ctx.dialect);
      const column = quote(fieldColumn(field));
      await ctx.manager.query(`UPDATE ${quote(rowsTable(field.tableId))} SET ${column} = NULL WHERE ${column} IN ${sql.list(deleted)}`, sql.params);
    }
    const fallback = field.properties.single_select_default;
    if (fallback != null && !optionsOf(field, ctx).some((o) => o.id === fallback)) field.properties.single_select_default = null;
    return [];
  }

  /** The default option, mapped to the imported field's. */
  importedProperties(doc: FieldDocument, ids: ImportIds): Record<string, unknown> | null {
    const id = doc.properties.single_select_default;
    return id == null ? null : { single_select_default: ids.selectOptions.get(Number(id)) ?? null };
  }

  /** Cells are kept as option ids. */
  exportCell(_field: FieldEntity, apiValue: unknown): number | null {
    return (apiValue as OptionJson | null)?.id ?? null;
  }

  /** An option id of the document (mapped), or an option value. */
  importCell(field: FieldEntity, value: unknown, ids: ImportIds, ctx: FieldContext): number | null {
    return this.prepareValue(field, typeof value === 'number' ? (ids.selectOptions.get(value) ?? null) : value, ctx);
  }

  async serializeExtra(field: FieldEntity, ctx: FieldContext): Promise<Record<string, unknown>> {
    return { select_options: optionsOf(field, ctx).map(optionJson) };
  }

  prepareValue(field: FieldEntity, value: unknown, ctx: FieldContext): number | null {
    if (value === null || value === undefined || value === '') return null;
    return resolveOptions(field, [value], ctx)[0];
  }

  defaultValue(field: FieldEntity, ctx: FieldContext): number | null {
    const id = field.properties.single_select_default;
    return id != null && optionsOf(field, ctx).some((o) => o.id === id) ? id : null;
  }

  toApi(field: FieldEntity, raw: unknown, ctx: FieldContext): OptionJson | null {
    if (raw === null || raw === undefined) return null;
    const option = optionsOf(field, ctx).find((o) => o.id === Number(raw));
    return option ? optionJson(option) : null;
  }

  toText(_field: FieldEntity, apiValue: unknown): string | null {
    return (apiValue as OptionJson | null)?.value || null;
  }

  /** Exported as its option's value (text in every format). */
  exportValue(_field: FieldEntity, apiValue: unknown): string | null {
    return (apiValue as OptionJson | null)?.value ?? null;
  }

  historyValue(_field: FieldEntity, apiValue: unknown): number | null {
    return (apiValue as OptionJson | null)?.id ?? null;
  }

  historyMetadata(_field: FieldEntity, apiValues: unknown[]): Record<string, unknown> {
    return historySelectOptions(apiValues);
  }

  /** A multiple select keeps its first option; another select field's option keeps its value. */
  convertFrom(field: FieldEntity, apiValue: unknown, from: FieldEntity, _fromType: FieldType): unknown {
    if (from.type === 'multiple_select') return (apiValue as OptionJson[])[0]?.id ?? null;
    if (from.type === this.type) return (apiValue as OptionJson | null)?.id ?? null;
    return undefined;
  }

  /** Baserow sorts single selects by the option's value. */
  sortExpression(field: FieldEntity, ref: ColumnRef): string | null {
    return optionValueSql(columnOf(field, ref));
  }

  /** `order`: by the options' order as the field lists them (Baserow's SINGLE_SELECT_SORT_BY_ORDER), no option first. */
  sortTypeExpression(field: FieldEntity, ref: ColumnRef, sortType: string): string | null {
    if (sortType !== 'order') return null;
    return `(SELECT o."order" FROM ${quote('database_select_option')} o WHERE o."id" = ${columnOf(field, ref)})`;
  }

  /** The field's matching options are found once (an uncorrelated subquery), not per row. */
  searchCondition(field: FieldEntity, ref: ColumnRef, term: string): string | null {
    return `${columnOf(field, ref)} IN (SELECT x."id" FROM ${quote('database_select_option')} x WHERE x."field_id" = ${ref.sql.param(field.id)} AND ${optionSearchSql(ref, term)})`;
  }

  /** The option's value. */
  searchText(field: FieldEntity, ref: ColumnRef): string {
    return optionValueText(columnOf(field, ref), field.id, ref);
  }
}
