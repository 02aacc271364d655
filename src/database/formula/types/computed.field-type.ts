import { ColumnDefinition, escapeLike } from '../../../core/database/dialect';
import { quote } from '../../../core/database/sql';
import type { FieldSpec } from '../../../core/validation/field';
import { DatabaseErrors } from '../../database.errors';
import type { FieldEntity } from '../../fields/field.entity';
import type { FieldDocument } from '../../serialization/database-document';
import { ColumnRef, exportedValue, FieldContext, FieldType, FieldTypeRegistry, RawRow, fieldColumn } from '../../fields/field-type';
import { joinCommaSeparated } from '../../fields/values/comma-separated';
import { DATE_PROPERTIES } from '../../fields/types/date.field-type';
import { NUMBER_SEPARATORS } from '../../fields/types/number.field-type';
import { DURATION_FORMATS } from '../../fields/values/duration';
import type { CompiledFormula } from '../compiler';
import type { DatabaseFields, FormulaService } from '../formula.service';
import type { FormulaType } from '../formula-type';
import { storedFormulaType } from '../stored-type';
import { dateSearchText, durationSearchText, joinedText, optionValueText } from '../../fields/types/search-text';

/** The keys every computed field answers: its result type and that type's formatting (null when it has none). */
export const RESULT_PROPERTIES: Readonly<Record<string, FieldSpec>> = {
  formula_type: { kind: 'any', required: false },
  array_formula_type: { kind: 'any', required: false },
  error: { kind: 'any', required: false },
  nullable: { kind: 'any', required: false },
  number_decimal_places: { kind: 'int', min: 0, max: 10, nullable: true, required: false },
  number_prefix: { kind: 'string', allowBlank: true, max: 10, nullable: true, required: false },
  number_suffix: { kind: 'string', allowBlank: true, max: 100, nullable: true, required: false },
  number_separator: { kind: 'choice', choices: NUMBER_SEPARATORS, nullable: true, required: false },
  ...Object.fromEntries(Object.entries(DATE_PROPERTIES).map(([key, spec]) => [key, { ...spec, nullable: true, default: undefined }])),
  duration_format: { kind: 'choice', choices: DURATION_FORMATS, nullable: true, required: false },
};

/** The plain field type a computed result type reads, sorts, searches and filters as. */
const PLAIN_TYPES: Partial<Record<FormulaType['name'], string>> = {
  text: 'text',
  char: 'text',
  url: 'url',
  number: 'number',
  boolean: 'boolean',
  date: 'date',
  duration: 'duration',
};

/**
 * What formula, lookup, rollup and count fields share: read-only cells stored in a column of
 * their result type, computed by the formula service; read, sorted, searched and filtered as
 * the plain field type of their result (a number formula as a number field with its decimal
 * places, …). Each type says which formula it computes and checks its own properties.
 */
export abstract class ComputedFieldType implements FieldType {
  abstract readonly type: string;
  readonly readOnly = true;
  readonly computed = true;
  readonly canIndex = true;
  abstract readonly properties: Readonly<Record<string, FieldSpec>>;

  constructor(
    protected readonly formulas: FormulaService,
    protected readonly registry: FieldTypeRegistry,
  ) {}

  /** Checks the type's own properties before the formula is typed (through and target fields…). */
  protected abstract check(field: FieldEntity, fields: DatabaseFields, input: Record<string, unknown>): void;

  canBePrimary(): boolean {
    return true;
  }

  async afterSave(field: FieldEntity, input: Record<string, unknown>, ctx: FieldContext): Promise<FieldEntity[]> {
    const fields = await this.formulas.databaseFields(ctx.table.databaseId);
    this.check(field, fields, input);
    const compiled: CompiledFormula = await this.formulas.type(field, fields, true);
    this.formulas.applyType(field, compiled.expr.type, input);
    if (field.dbIndex && !this.formulas.indexable(field)) throw DatabaseErrors.dbIndexNotSupported(this.type);
    await this.formulas.saveDependencies(field, compiled, fields);
    return [];
  }

  /** An imported computed field finds its link and target fields by name (the new ids differ). */
  importInput(doc: FieldDocument): Record<string, unknown> {
    const p = doc.properties;
    if (p.through_field_id === undefined) return {};
    return { through_field_id: null, through_field_name: p.through_field_name, target_field_id: null, target_field_name: p.target_field_name };
  }

  /** The fields its cells are computed from (an import creates it after them). */
  reads(field: FieldEntity): Promise<number[]> {
    return this.formulas.readFieldIds(field.id);
  }

  /** A changed formula (or result type) recomputes the column, even when it keeps its kind. */
  needsConversion(previous: FieldEntity, field: FieldEntity): boolean {
    return JSON.stringify(previous.properties) !== JSON.stringify(field.properties);
  }

  column(field: FieldEntity): ColumnDefinition {
    return this.formulas.columnOf(field);
  }

  /** The column exists: every cell is computed. */
  async createStorage(field: FieldEntity, ctx: FieldContext): Promise<void> {
    await this.formulas.recompute(field, await this.formulas.databaseFields(ctx.table.databaseId), null);
  }

  async serializeExtra(field: FieldEntity, ctx: FieldContext): Promise<Record<string, unknown>> {
    const type = storedFormulaType(field);
    const element = type.sub ?? type;
    if (element.name !== 'single_select') return {};
    return { select_options: (await this.optionsOf(field, ctx)).map((o) => ({ id: o.id, value: o.value, color: o.color })) };
  }

  private async optionsOf(field: FieldEntity, ctx: FieldContext): Promise<{ id: number; value: string; color: string }[]> {
    const sourceId = Number(field.properties.select_options_field_id);
    if (!sourceId) return [];
    const own = ctx.selectOptions.get(sourceId);
    if (own) return own;
    return ctx.manager.query(`SELECT "id", "value", "color" FROM ${quote('database_select_option')} WHERE "field_id" = ${ctx.dialect.placeholder(1)} ORDER BY "order", "id"`, [sourceId]);
  }

  prepareValue(): never {
    throw new Error('Computed cells are never written.');
  }

  defaultValue(): null {
    return null;
  }

  /** The plain field (and its type) the result reads as, sharing this field's id and column; null for other results. */
  plain(field: FieldEntity): { field: FieldEntity; type: FieldType } | null {
    const result = storedFormulaType(field);
    const name = PLAIN_TYPES[result.name];
    if (!name) return null;
    const properties: Record<string, unknown> = { ...result.props, number_negative: true };
    return { field: { ...field, type: name, properties } as FieldEntity, type: this.registry.require(name) };
  }

  /**
   * Filters see the plain field of the result; a single select result (an option id in an
   * integer column) as a single select field whose options are those of
   * `select_options_field_id`. Arrays, links and buttons have no plain type: the array
   * filters (and `empty`) take the computed field itself.
   */
  filterAs(field: FieldEntity): { field: FieldEntity; type: FieldType } | null {
    const plain = this.plain(field);
    if (plain || storedFormulaType(field).name !== 'single_select') return plain;
    return { field: { ...field, type: 'single_select' } as FieldEntity, type: this.registry.require('single_select') };
  }

  async readValues(field: FieldEntity, rows: RawRow[], ctx: FieldContext): Promise<unknown[]> {
    const result = storedFormulaType(field);
    const column = fieldColumn(field);
    const plain = this.plain(field);
    if (plain) return plain.type.readValues(plain.field, rows, ctx);
    if (result.name === 'single_select') {
      const options = new Map((await this.optionsOf(field, ctx)).map((o) => [Number(o.id), o]));
      return rows.map((row) => {
        const option = row[column] == null ? undefined : options.get(Number(row[column]));
        return option ? { id: option.id, value: option.value, color: option.color } : null;
      });
    }
    if (result.name === 'invalid') return rows.map(() => null);
    const values = rows.map((row) => {
      const raw = row[column];
      return typeof raw === 'string' ? JSON.parse(raw) : (raw ?? null);
    });
    if (result.name !== 'array') return values;
    const items = values.map((value) => (Array.isArray(value) ? (value as { id: number; value: unknown }[]) : []));
    const element = this.element(field);
    if (!element) return items;
    // Every row's items read at once, as cells of the element's plain type.
    const cells = await element.type.readValues(
      element.field,
      items.flat().map((item, i) => ({ id: i + 1, [column]: item.value })),
      ctx,
    );
    let next = 0;
    return items.map((list) => list.map((item) => ({ id: item.id, value: cells[next++] })));
  }

  /** The plain field of an array's items (a lookup of numbers: a number field), or null. */
  private element(field: FieldEntity): { field: FieldEntity; type: FieldType } | null {
    const sub = storedFormulaType(field).sub;
    return sub ? this.plain({ ...field, properties: { ...field.properties, formula_type: sub.name } } as FieldEntity) : null;
  }

  /**
   * Exported as the plain field of the result; an array item by item (a list, or Baserow's
   * comma-separated text), a single select by its value.
   */
  exportValue(field: FieldEntity, apiValue: unknown, rich: boolean): unknown {
    const plain = this.plain(field);
    if (plain) return exportedValue(plain.type, plain.field, apiValue, rich);
    const result = storedFormulaType(field);
    if (result.name === 'single_select') return (apiValue as { value?: unknown } | null)?.value ?? '';
    if (result.name !== 'array') return rich ? apiValue : this.toText(field, apiValue);
    const element = this.element(field);
    const items = (Array.isArray(apiValue) ? (apiValue as { value: unknown }[]) : []).map(({ value }) => {
      if (element) return exportedValue(element.type, element.field, value, rich);
      // An option of a lookup of single selects, by its value.
      return (typeof value === 'object' && value !== null ? (value as { value?: unknown }).value : value) ?? '';
    });
    return rich ? items : joinCommaSeparated(items.map(String));
  }

  toText(field: FieldEntity, apiValue: unknown): string | null {
    const plain = this.plain(field);
    if (plain) return plain.type.toText(plain.field, apiValue);
    if (apiValue === null || apiValue === undefined) return null;
    if (Array.isArray(apiValue)) return apiValue.map((item) => (typeof item?.value === 'object' && item.value !== null ? (item.value.value ?? '') : String(item?.value ?? ''))).join(', ') || null;
    if (typeof apiValue === 'object') return String((apiValue as { value?: unknown; url?: unknown }).value ?? (apiValue as { url?: unknown }).url ?? '');
    return String(apiValue);
  }

  formulaResultType(field: FieldEntity): string {
    const result = storedFormulaType(field);
    return result.sub ? `array(${result.sub.name})` : result.name;
  }

  /**
   * Sorted as the field its result is filtered as (a single select formula by its option's
   * value, as Baserow); an array (a lookup) item by item when its items sort (Baserow's
   * `can_order_by_in_array`: texts, numbers, booleans, dates, durations, single selects); links,
   * buttons, files and multiple selects not.
   */
  sortExpression(field: FieldEntity, ref: ColumnRef): string | null {
    const result = storedFormulaType(field);
    if (result.name === 'array') {
      const kind = ARRAY_SORT_KINDS[result.sub?.name ?? 'invalid'];
      return kind ? this.formulas.sqlDialect.arraySortKey(`${quote(ref.alias)}.${quote(fieldColumn(field))}`, kind, quote(`sort_items_${field.id}`)) : null;
    }
    const as = this.filterAs(field);
    return as ? as.type.sortExpression(as.field, ref) : null;
  }

  /** Grouped only by a result with a plain field type (Baserow's `can_group_by`: not single selects, arrays, links or buttons). */
  groupable(field: FieldEntity): boolean {
    return this.plain(field) !== null;
  }

  searchCondition(field: FieldEntity, ref: ColumnRef, term: string): string | null {
    const plain = this.plain(field);
    if (plain) return plain.type.searchCondition(plain.field, ref, term);
    const result = storedFormulaType(field);
    if (result.name === 'invalid') return null;
    const pattern = ref.sql.param(`%${escapeLike(term)}%`);
    if (result.name === 'array') {
      // The items' values, not the JSON around them (its keys and ids).
      const { relation, value } = this.formulas.sqlDialect.storedArray(`${quote(ref.alias)}.${quote(fieldColumn(field))}`, 'search_item');
      const element = result.sub?.name === 'single_select' ? this.formulas.sqlDialect.jsonObjectText(value, 'value') : value;
      return `EXISTS (SELECT 1 FROM ${relation.from} WHERE ${ref.sql.dialect.ilike(ref.sql.dialect.castText(element), pattern)})`;
    }
    return ref.sql.dialect.ilike(ref.sql.dialect.castText(`${quote(ref.alias)}.${quote(fieldColumn(field))}`), pattern);
  }

  /**
   * As the plain field of its result (a number with its decimal places, a date in its format…);
   * a single select as its option's value, a link as `label (url)`, an array as its items'
   * texts joined by spaces; nothing for an invalid formula.
   */
  searchText(field: FieldEntity, ref: ColumnRef): string | null {
    const plain = this.plain(field);
    if (plain) return plain.type.searchText(plain.field, ref);
    const result = storedFormulaType(field);
    const column = `${quote(ref.alias)}.${quote(fieldColumn(field))}`;
    if (result.name === 'invalid') return null;
    if (result.name === 'single_select') return optionValueText(column, Number(result.props.select_options_field_id ?? 0), ref);
    const db = this.formulas.sqlDialect;
    if (result.name === 'link' || result.name === 'button') return linkText(column, db);
    if (result.name !== 'array' || !result.sub) return ref.sql.dialect.castText(column);
    const { relation, value } = db.storedArray(column, quote(`sa_${field.id}`));
    return joinedText(relation, this.itemText(result.sub, value, field.id, ref), `saa_${field.id}`, ref);
  }

  /** An array item's text (its `value`, as JSON text) by the item type. */
  private itemText(sub: FormulaType, value: string, fieldId: number, ref: ColumnRef): string {
    const db = this.formulas.sqlDialect;
    switch (sub.name) {
      case 'number':
        return db.numberText(db.fromJsonValue(value, 'number'), Number(sub.props.number_decimal_places ?? 0));
      case 'date': {
        const includeTime = !!sub.props.date_include_time;
        return dateSearchText(db.fromJsonValue(value, includeTime ? 'datetime' : 'date'), includeTime, sub.props, ref);
      }
      case 'duration':
        return durationSearchText(db.fromJsonValue(value, 'number'), String(sub.props.duration_format ?? 'h:mm'), ref);
      case 'single_select':
        return db.jsonObjectText(value, 'value');
      case 'single_file':
        return db.jsonObjectText(value, 'visible_name');
      case 'link':
      case 'button':
        return linkText(value, db);
      default:
        return value;
    }
  }
}

/** A link value (a JSON object) as Baserow searches it: `label (url)`. */
function linkText(json: string, db: FormulaService['sqlDialect']): string {
  return `(COALESCE(${db.jsonObjectText(json, 'label')}, '') || ' (' || COALESCE(${db.jsonObjectText(json, 'url')}, '') || ')')`;
}

/** How the items of an array sort, by the items' formula type (dates by their ISO text, durations as seconds). */
const ARRAY_SORT_KINDS: Partial<Record<string, 'text' | 'number' | 'boolean' | 'select'>> = {
  text: 'text',
  char: 'text',
  url: 'text',
  date: 'text',
  number: 'number',
  duration: 'number',
  boolean: 'boolean',
  single_select: 'select',
};
