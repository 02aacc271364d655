import { Inject, Injectable } from '@nestjs/common';
import { Dialect } from '../../core/database/dialect';
import { DIALECT } from '../../core/database/tokens';
import { quote, Sql } from '../../core/database/sql';
import { ApiError, queryValidationError } from '../../core/errors/api-error';
import { DatabaseErrors } from '../database.errors';
import type { FieldEntity } from '../fields/field.entity';
import { FieldTypeRegistry, rowsTable } from '../fields/field-type';
import { FilterCompiler, filtersParamError, FilterLeaf, FilterTree } from '../filters/filter-tree';
import type { TableContext } from '../table-context';

export const ROW_ALIAS = 'r';

/** A sort of the listing: a field (or a system column) and a direction. */
export interface RowSort {
  field: FieldEntity;
  descending: boolean;
}

/** How to filter, search and sort rows: from query parameters, a view, or both. */
export interface RowSelection {
  filters: FilterTree | null;
  search: string | null;
  sorts: RowSort[];
  /** Row ids to keep (`filter__field_id__in`). */
  rowIds?: number[] | null;
}

/** `true` for user_field_names-style flags: present and empty, or y/yes/t/true/on/1. */
export function queryFlag(value: unknown): boolean {
  if (value === undefined) return false;
  return ['', 'y', 'yes', 't', 'true', 'on', '1'].includes(String(value).toLowerCase());
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
      if (sortType !== 'default' || !this.fieldTypes.of(field).sortExpression(field, { alias: ROW_ALIAS, sql: new Sql(this.dialect) })) {
        throw DatabaseErrors.orderByFieldNotPossible(ref, sortType, field.type);
      }
      return { field, descending };
    });
  }

  /** The `filters` JSON parameter, validated into a tree. */
  parseFiltersJson(text: string): FilterTree {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw filtersParamError({ error: 'The provided filters are not valid JSON.', code: 'invalid_json' });
    }
    return this.validateTree(parsed, []);
  }

  private validateTree(value: unknown, path: string[]): FilterTree {
    const fail = (detail: unknown): ApiError => filtersParamError(detail);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw fail({ non_field_errors: [{ error: 'Invalid data. Expected a dictionary, but got ' + (Array.isArray(value) ? 'list' : typeof value) + '.', code: 'invalid' }] });
    }
    const source = value as Record<string, unknown>;
    const filterType = source.filter_type === undefined ? 'AND' : source.filter_type;
    if (filterType !== 'AND' && filterType !== 'OR') {
      throw fail({ filter_type: [{ error: `"${String(filterType)}" is not a valid choice.`, code: 'invalid_choice' }] });
    }
    const filters = source.filters ?? [];
    const groups = source.groups ?? [];
    if (!Array.isArray(filters)) throw fail({ filters: [{ error: `Expected a list of items but got type "${typeof filters}".`, code: 'not_a_list' }] });
    if (!Array.isArray(groups)) throw fail({ groups: [{ error: `Expected a list of items but got type "${typeof groups}".`, code: 'not_a_list' }] });
    const leaves: FilterLeaf[] = filters.map((item, index) => {
      const leaf = item as Record<string, unknown>;
      const errors: Record<string, unknown> = {};
      if (typeof leaf !== 'object' || leaf === null) throw fail({ filters: { [index]: { non_field_errors: [{ error: 'Invalid data.', code: 'invalid' }] } } });
      if (leaf.field === undefined || leaf.field === null) errors.field = [{ error: 'This field is required.', code: 'required' }];
      else if (typeof leaf.field !== 'number' && typeof leaf.field !== 'string') errors.field = [{ error: 'A valid value is required.', code: 'invalid' }];
      if (typeof leaf.type !== 'string') errors.type = [{ error: 'This field is required.', code: 'required' }];
      if (Object.keys(errors).length) throw fail({ filters: { [index]: errors } });
      return { field: leaf.field as number | string, type: leaf.type as string, value: leaf.value == null ? '' : String(leaf.value) };
    });
    return { filter_type: filterType, filters: leaves, groups: groups.map((g, i) => this.validateTree(g, [...path, String(i)])) };
  }

  /** `filter__<field>__<type>=value` parameters (and `filter_type`) as a one-level tree. */
  parseFilterParams(query: Record<string, unknown>, context: TableContext, userFieldNames: boolean): { tree: FilterTree | null; rowIds: number[] | null } {
    const leaves: FilterLeaf[] = [];
    let rowIds: number[] | null = null;
    for (const [key, raw] of Object.entries(query)) {
      if (!key.startsWith('filter__')) continue;
      const rest = key.slice('filter__'.length);
      const split = rest.lastIndexOf('__');
      if (split <= 0) continue;
      const ref = rest.slice(0, split);
      const type = rest.slice(split + 2);
      const values = Array.isArray(raw) ? raw.map(String) : [String(raw)];
      if (ref === 'field_id' && type === 'in') {
        rowIds = values.flatMap((v) => v.split(',')).filter((v) => /^\d+$/.test(v.trim())).map((v) => Number(v.trim()));
        continue;
      }
      const field = this.resolveFilterField(context, ref, userFieldNames);
      if (!field) throw DatabaseErrors.filterFieldNotFound(ref);
      for (const value of values) leaves.push({ field: field.id, type, value });
    }
    const filterType = String(query.filter_type ?? 'AND').toUpperCase() === 'OR' ? 'OR' : 'AND';
    return { tree: leaves.length ? { filter_type: filterType, filters: leaves, groups: [] } : null, rowIds };
  }

  private resolveFilterField(context: TableContext, ref: string, userFieldNames: boolean): FieldEntity | undefined {
    if (userFieldNames) return context.byName.get(ref) ?? this.resolveField(context, ref, false);
    const match = /^field_(\d+)$/.exec(ref);
    return match ? context.byId.get(Number(match[1])) : undefined;
  }

  /** The WHERE condition of a selection (without the keyword), or null for every row. */
  where(selection: RowSelection, context: TableContext, sql: Sql, userFieldNames: boolean): string | null {
    const parts: string[] = [];
    if (selection.filters) {
      const condition = this.compiler.compile(selection.filters, context, sql, { alias: ROW_ALIAS, userFieldNames });
      if (condition) parts.push(condition);
    }
    if (selection.rowIds) parts.push(selection.rowIds.length ? `${quote(ROW_ALIAS)}."id" IN ${sql.list(selection.rowIds)}` : '1 = 0');
    if (selection.search) parts.push(this.searchCondition(selection.search, context, sql));
    return parts.length ? parts.join(' AND ') : null;
  }

  /** Compat search: any searchable cell contains the term, or the term is the row id. */
  private searchCondition(term: string, context: TableContext, sql: Sql): string {
    const conditions: string[] = [];
    if (/^\d+$/.test(term.trim()) && Number(term) <= 2147483647) conditions.push(`${quote(ROW_ALIAS)}."id" = ${sql.param(Number(term))}`);
    for (const field of context.fields) {
      const condition = this.fieldTypes.of(field).searchCondition(field, { alias: ROW_ALIAS, sql }, term);
      if (condition) conditions.push(condition);
    }
    return conditions.length ? `(${conditions.join(' OR ')})` : '1 = 0';
  }

  /** ORDER BY: the sorts (nulls first ascending, last descending), then `order`, then `id`. */
  orderBy(sorts: RowSort[], sql: Sql): string {
    const parts = sorts.map(({ field, descending }) => {
      const expression = this.fieldTypes.of(field).sortExpression(field, { alias: ROW_ALIAS, sql })!;
      return descending ? `${expression} DESC NULLS LAST` : `${expression} ASC NULLS FIRST`;
    });
    return [...parts, `${quote(ROW_ALIAS)}."order" ASC`, `${quote(ROW_ALIAS)}."id" ASC`].join(', ');
  }

  from(context: TableContext): string {
    return `${quote(rowsTable(context.table.id))} ${quote(ROW_ALIAS)}`;
  }
}

export function searchModeError(value: string): ApiError {
  return queryValidationError({ search_mode: [{ error: `"${value}" is not a valid choice.`, code: 'invalid_choice' }] });
}
