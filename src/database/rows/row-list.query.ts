import { Inject, Injectable } from '@nestjs/common';
import { Dialect } from '../../core/database/dialect';
import { DIALECT } from '../../core/database/tokens';
import { quote, Sql } from '../../core/database/sql';
import { pythonTypeName } from '../../core/validation/field';
import { pythonStr } from '../fields/values/common';
import { DatabaseErrors } from '../database.errors';
import type { FieldEntity } from '../fields/field.entity';
import { FieldTypeRegistry, LinkedTables, rowsTable, sortExpressionOf } from '../fields/field-type';
import { builtinFilterField } from '../filters/builtin-fields';
import { FilterCompiler, filtersParamError, FilterLeaf, FilterTree } from '../filters/filter-tree';
import { SearchIndexService } from '../search/search-index.service';
import { exactRowId } from '../search/full-text';
import { TableContext, TableContextService } from '../table-context';
import { liveRow } from './table-schema.repository';

export const ROW_ALIAS = 'r';

/** A sort of the listing: a field (or a system column) and a direction. */
export interface RowSort {
  field: FieldEntity;
  descending: boolean;
  /** The sort type (`default` when absent; a single select's `order`: by its options' order). */
  type?: string;
}

/** How `search` matches (`search_mode`): Baserow's compat substring search, or its full-text search. */
export type SearchMode = 'compat' | 'full-text-with-count';

/** How to filter, search and sort rows: from query parameters, a view, or both. */
export interface RowSelection {
  filters: FilterTree | null;
  search: string | null;
  /** `compat` when absent. */
  searchMode?: SearchMode;
  sorts: RowSort[];
  /** Row ids to keep (`filter__field_id__in`). */
  rowIds?: number[] | null;
  /** Search only these fields (a shared view's visible fields); all of the table's when absent. */
  searchFields?: FieldEntity[];
  /** Only rows that a live row of another table, matching `filters`, links to through `field` (a shared view's link lookups). */
  linkedFrom?: LinkedFrom;
}

/** The rows of `context` that `filters` keep (all live ones when null), linking through their link field `field`. */
export interface LinkedFrom {
  context: TableContext;
  field: FieldEntity;
  filters: FilterTree | null;
}


/** Splits a comma-separated list where names may be quoted (`"a,b"`, with `\"` escapes). */
export function splitNames(text: string): string[] {
  const names: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\' && text[i + 1] === '"') {
        current += '"';
        i++;
      } else if (c === '"') quoted = false;
      else current += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      names.push(current);
      current = '';
    } else current += c;
  }
  names.push(current);
  return names.map((n) => n.trim()).filter((n) => n !== '');
}

/**
 * Turns list parameters into a selection and compiles selections to SQL: the WHERE
 * (filters, search, ids) and the ORDER BY (sorts, then `order`, then `id`), so an index
 * on a sorted field can serve it exactly.
 */
@Injectable()
export class RowListQuery {
  constructor(
    private readonly compiler: FilterCompiler,
    private readonly fieldTypes: FieldTypeRegistry,
    @Inject(DIALECT) private readonly dialect: Dialect,
    private readonly contexts: TableContextService,
    private readonly fullText: SearchIndexService,
  ) {}

  /** The field a reference names: `field_<id>`, a bare id, or (with user_field_names) a name. */
  resolveField(context: TableContext, ref: string, userFieldNames: boolean): FieldEntity | undefined {
    if (userFieldNames) {
      const byName = context.byName.get(ref);
      if (byName) return byName;
    }
    const match = /^(?:field_)?(\d+)$/.exec(ref);
    return match ? context.byId.get(Number(match[1])) : undefined;
  }

  parseOrderBy(context: TableContext, text: string, userFieldNames: boolean): RowSort[] {
    return splitNames(text).map((item) => {
      let ref = item;
      let descending = false;
      if (ref.startsWith('-')) {
        descending = true;
        ref = ref.slice(1);
      } else if (ref.startsWith('+')) ref = ref.slice(1);
      let sortType = 'default';
      const typed = /^(.*)\[([a-z_]+)\]$/.exec(ref);
      if (typed) {
        ref = typed[1];
        sortType = typed[2];
      }
      const field = this.resolveField(context, ref, userFieldNames);
      if (!field) throw DatabaseErrors.orderByFieldNotFound(ref);
      if (!sortExpressionOf(this.fieldTypes.of(field), field, { alias: ROW_ALIAS, sql: new Sql(this.dialect) }, sortType)) {
        throw DatabaseErrors.orderByFieldNotPossible(ref, sortType, field.type);
      }
      return { field, descending, ...(sortType !== 'default' ? { type: sortType } : {}) };
    });
  }

  /**
   * The `filters` JSON parameter, validated into a tree as Baserow's
   * `PublicViewFiltersSerializer` does (every error at once, DRF's messages and codes).
   * With `user_field_names`, a filter's `field` is a name (a string) instead of an id.
   */
  parseFiltersJson(text: string, userFieldNames = false): FilterTree {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw filtersParamError({ error: 'The provided filters are not valid JSON.', code: 'invalid_json' });
    }
    if (parsed === null) throw filtersParamError({ non_field_errors: [{ error: 'No data provided', code: 'null' }] });
    const result = this.validateTree(parsed, userFieldNames);
    if (!result.ok) throw filtersParamError(result.errors);
    return result.tree;
  }

  /** One group of the tree (the root, or an item of `groups`), with DRF's error tree when invalid. */
  private validateTree(value: unknown, userFieldNames: boolean): { ok: true; tree: FilterTree } | { ok: false; errors: Record<string, unknown> } {
    type Detail = { error: string; code: string };
    const detail = (error: string, code: string): Detail[] => [{ error, code }];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, errors: { non_field_errors: detail(`Invalid data. Expected a dictionary, but got ${pythonTypeName(value)}.`, 'invalid') } };
    }
    const source = value as Record<string, unknown>;
    const errors: Record<string, unknown> = {};

    // filter_type: ChoiceField(AND, OR), required.
    let filterType: 'AND' | 'OR' = 'AND';
    if (!('filter_type' in source)) errors.filter_type = detail('This field is required.', 'required');
    else if (source.filter_type === null) errors.filter_type = detail('This field may not be null.', 'null');
    else if (source.filter_type === 'AND' || source.filter_type === 'OR') filterType = source.filter_type;
    else errors.filter_type = detail(`"${pythonStr(source.filter_type)}" is not a valid choice.`, 'invalid_choice');

    // filters: ListField(child=PublicViewFilterSerializer), optional.
    const leaves: FilterLeaf[] = [];
    if ('filters' in source) {
      const filters = source.filters;
      if (filters === null) errors.filters = detail('This field may not be null.', 'null');
      else if (!Array.isArray(filters)) errors.filters = detail(`Expected a list of items but got type "${pythonTypeName(filters)}".`, 'not_a_list');
      else {
        const itemErrors: Record<string, unknown> = {};
        filters.forEach((item, index) => {
          const leaf = this.validateLeaf(item, userFieldNames);
          if ('errors' in leaf) itemErrors[index] = leaf.errors;
          else leaves.push(leaf.leaf);
        });
        if (Object.keys(itemErrors).length) errors.filters = itemErrors;
      }
    }

    // groups: RecursiveField(many=True), optional.
    const groups: FilterTree[] = [];
    if ('groups' in source) {
      const items = source.groups;
      if (items === null) errors.groups = detail('This field may not be null.', 'null');
      else if (!Array.isArray(items)) errors.groups = { non_field_errors: detail(`Expected a list of items but got type "${pythonTypeName(items)}".`, 'not_a_list') };
      else {
        const groupErrors: unknown[] = [];
        let failed = false;
        for (const item of items) {
          if (item === null) {
            groupErrors.push(detail('This field may not be null.', 'null'));
            failed = true;
            continue;
          }
          const group = this.validateTree(item, userFieldNames);
          if (group.ok) {
            groups.push(group.tree);
            groupErrors.push({});
          } else {
            groupErrors.push(group.errors);
            failed = true;
          }
        }
        if (failed) errors.groups = groupErrors;
      }
    }

    if (Object.keys(errors).length) return { ok: false, errors };
    return { ok: true, tree: { filter_type: filterType, filters: leaves, groups } };
  }

  /** One item of `filters`: `field` (IntegerField, or CharField with user_field_names), `type` (CharField), `value` (CharField, blank allowed). */
  private validateLeaf(item: unknown, userFieldNames: boolean): { leaf: FilterLeaf } | { errors: unknown } {
    const detail = (error: string, code: string) => [{ error, code }];
    if (item === null) return { errors: detail('This field may not be null.', 'null') };
    if (typeof item !== 'object' || Array.isArray(item)) {
      return { errors: { non_field_errors: detail(`Invalid data. Expected a dictionary, but got ${pythonTypeName(item)}.`, 'invalid') } };
    }
    const source = item as Record<string, unknown>;
    const errors: Record<string, unknown> = {};
    const charField = (key: string, allowBlank: boolean): string | undefined => {
      if (!(key in source)) errors[key] = detail('This field is required.', 'required');
      else if (source[key] === null) errors[key] = detail('This field may not be null.', 'null');
      else if (typeof source[key] === 'boolean' || !['string', 'number'].includes(typeof source[key])) errors[key] = detail('Not a valid string.', 'invalid');
      else {
        const text = pythonStr(source[key]).trim();
        if (text === '' && !allowBlank) errors[key] = detail('This field may not be blank.', 'blank');
        else return text;
      }
      return undefined;
    };
    let field: number | string | undefined;
    if (userFieldNames) field = charField('field', false);
    else if (!('field' in source)) errors.field = detail('This field is required.', 'required');
    else if (source.field === null) errors.field = detail('This field may not be null.', 'null');
    else {
      // DRF IntegerField: `int(str(value))` after dropping a trailing `.0…`.
      const text = typeof source.field === 'string' || typeof source.field === 'number' ? pythonStr(source.field).replace(/\.0*\s*$/, '') : null;
      if (text !== null && /^\s*[+-]?\d+\s*$/.test(text) && Number.isSafeInteger(Number(text))) field = Number(text);
      else errors.field = detail('A valid integer is required.', 'invalid');
    }
    const type = charField('type', false);
    const value = charField('value', true);
    if (Object.keys(errors).length) return { errors };
    return { leaf: { field: field!, type: type!, value: value!.split(String.fromCharCode(0)).join('') } };
  }

  /**
   * `filter__<field>__<type>=value` parameters (and `filter_type`) as a one-level tree, read as
   * Baserow's `filter_by_fields_object` reads them: `<field>` is a field name (with
   * user_field_names), the built-in `field_created_on` / `field_updated_on`, or `field_<id>`
   * (an error when there is no such field); any other name is ignored.
   */
  parseFilterParams(query: Record<string, unknown>, context: TableContext, userFieldNames: boolean): { tree: FilterTree | null; rowIds: number[] | null } {
    const leaves: FilterLeaf[] = [];
    let rowIds: number[] | null = null;
    for (const [key, raw] of Object.entries(query)) {
      const sections = /^filter__(.+)__(.+)$/.exec(key);
      if (!sections) continue;
      const [, ref, type] = sections;
      const values = Array.isArray(raw) ? raw.map(String) : [String(raw)];
      if (ref === 'field_id' && type === 'in') {
        // No valid id in the list filters nothing, as in Baserow.
        const ids = values.flatMap((v) => v.split(',')).filter((v) => /^\d+$/.test(v.trim())).map((v) => Number(v.trim()));
        if (ids.length) rowIds = ids;
        continue;
      }
      let field = (userFieldNames ? context.byName.get(ref) : undefined) ?? builtinFilterField(ref);
      if (!field) {
        const byId = /^field_(\d+)$/.exec(ref);
        if (!byId) continue;
        field = context.byId.get(Number(byId[1]));
        if (!field) throw DatabaseErrors.filterFieldNotFound(ref);
      }
      for (const value of values) leaves.push({ field, type, value });
    }
    const filterType = String(query.filter_type ?? 'AND').toUpperCase() === 'OR' ? 'OR' : 'AND';
    return { tree: leaves.length ? { filter_type: filterType, filters: leaves, groups: [] } : null, rowIds };
  }

  /** The WHERE condition of a selection (without the keyword): live rows, then filters, ids and search. */
  async where(selection: RowSelection, context: TableContext, sql: Sql, userFieldNames: boolean): Promise<string> {
    const parts: string[] = [liveRow(ROW_ALIAS)];
    const tables = selection.filters || selection.search ? await this.contexts.linkedTables(context) : undefined;
    if (selection.filters) {
      const condition = this.compiler.compile(selection.filters, context, sql, { alias: ROW_ALIAS, userFieldNames, tables });
      if (condition) parts.push(condition);
    }
    if (selection.rowIds) parts.push(selection.rowIds.length ? `${quote(ROW_ALIAS)}."id" IN ${sql.list(selection.rowIds)}` : '1 = 0');
    if (selection.linkedFrom) parts.push(await this.linkedFromCondition(selection.linkedFrom, sql));
    if (selection.search && selection.searchMode === 'full-text-with-count') {
      parts.push(await this.fullText.condition(context, selection.search, selection.searchFields, sql, tables as Map<number, TableContext> | undefined));
    } else if (selection.search) parts.push(this.searchCondition(selection.search, selection.searchFields ?? context.fields, sql, tables));
    return parts.join(' AND ');
  }

  /**
   * A linked row is kept when a pair of the link's junction names it and the owning row is live
   * and matches the owner's filters: one indexed probe of the junction per candidate row (the
   * page stops at its limit; the count is cached), never a read of the owner's rows in JavaScript.
   */
  private async linkedFromCondition({ context, field, filters }: LinkedFrom, sql: Sql): Promise<string> {
    const owner = quote('lf');
    const pair = quote('lf_j');
    const tables = filters ? await this.contexts.linkedTables(context) : undefined;
    const source = this.fieldTypes.of(field).relationSource?.(field, { alias: 'lf', sql, tables });
    if (!source) throw new Error(`Field type ${field.type} has no relation to look up.`);
    const conditions = [`${pair}.${source.targetColumn} = ${quote(ROW_ALIAS)}."id"`, liveRow('lf')];
    const filtered = filters && this.compiler.compile(filters, context, sql, { alias: 'lf', userFieldNames: false, tables });
    if (filtered) conditions.push(filtered);
    return `EXISTS (SELECT 1 FROM ${source.from} ${pair} JOIN ${quote(rowsTable(context.table.id))} ${owner} ON ${owner}."id" = ${pair}.${source.rowColumn} WHERE ${conditions.join(' AND ')})`;
  }

  /** Compat search: any searchable cell contains the term, or the term is the row id (not with a leading zero, as full-text). */
  private searchCondition(term: string, fields: FieldEntity[], sql: Sql, tables?: LinkedTables): string {
    const conditions: string[] = [];
    const id = exactRowId(term);
    if (id !== null) conditions.push(`${quote(ROW_ALIAS)}."id" = ${sql.param(id)}`);
    for (const field of fields) {
      const condition = this.fieldTypes.of(field).searchCondition(field, { alias: ROW_ALIAS, sql, tables }, term);
      if (condition) conditions.push(condition);
    }
    return conditions.length ? `(${conditions.join(' OR ')})` : '1 = 0';
  }

  /** ORDER BY: the sorts (nulls first ascending, last descending), then `order`, then `id`. */
  orderBy(sorts: RowSort[], sql: Sql): string {
    const parts = sorts.map(({ field, descending, type }) => {
      const expression = sortExpressionOf(this.fieldTypes.of(field), field, { alias: ROW_ALIAS, sql }, type)!;
      return descending ? `${expression} DESC NULLS LAST` : `${expression} ASC NULLS FIRST`;
    });
    return [...parts, `${quote(ROW_ALIAS)}."order" ASC`, `${quote(ROW_ALIAS)}."id" ASC`].join(', ');
  }

  from(context: TableContext): string {
    return `${quote(rowsTable(context.table.id))} ${quote(ROW_ALIAS)}`;
  }
}
