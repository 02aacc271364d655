import { quote } from '../../core/database/sql';
import { liveRow } from '../rows/table-schema.repository';
import type { FieldEntity } from '../fields/field.entity';
import { fieldColumn, rowsTable } from '../fields/field-type';
import type { CompileScope, Expr } from './expr';
import type { FormulaDialect } from './formula-dialect';
import { formulaTypes, FormulaType } from './formula-type';
import { COMPUTED_TYPES, storedFormulaType } from './stored-type';

type FieldsOf = (tableId: number) => FieldEntity[];

const TEXT_TYPES = new Set(['text', 'long_text', 'email', 'phone_number', 'uuid', 'url']);
const DATE_KEYS = ['date_format', 'date_include_time', 'date_time_format', 'date_show_tzinfo', 'date_force_timezone'];

/**
 * How a field reads inside a formula (Baserow's `to_baserow_formula_type` and
 * `to_baserow_formula_expression` of each field type): its formula type and the SQL of its
 * value for a row alias. Link fields and multiple selects are arrays (relations).
 */
export class FieldReferences {
  constructor(private readonly db: FormulaDialect) {}

  /** The field's value in the row aliased `alias`. */
  read(field: FieldEntity, scope: CompileScope, alias: string, fieldsOf: FieldsOf): Expr {
    const column = `${quote(alias)}.${quote(fieldColumn(field))}`;
    const p = field.properties;
    if (TEXT_TYPES.has(field.type)) return { type: formulaTypes.text(true), sql: column };
    switch (field.type) {
      case 'number':
        return { type: { ...formulaTypes.number(Number(p.number_decimal_places ?? 0), true), props: pick(p, ['number_decimal_places', 'number_prefix', 'number_suffix', 'number_separator']) }, sql: column };
      case 'rating':
      case 'autonumber':
        return { type: formulaTypes.number(0, field.type === 'autonumber'), sql: this.db.toNumber(column) };
      case 'boolean':
        return { type: formulaTypes.boolean(), sql: column };
      case 'date':
        return { type: formulaTypes.date(!!p.date_include_time, true, pick(p, DATE_KEYS)), sql: column };
      case 'created_on':
      case 'last_modified': {
        const system = `${quote(alias)}.${quote(field.type === 'created_on' ? 'created_on' : 'updated_on')}`;
        return { type: formulaTypes.date(!!p.date_include_time, false, pick(p, DATE_KEYS)), sql: p.date_include_time ? system : this.db.dateTimeAsDate(system) };
      }
      case 'duration':
        return { type: formulaTypes.duration(String(p.duration_format ?? 'h:mm')), sql: column };
      case 'single_select':
        return { type: formulaTypes.singleSelect(field.id), sql: column };
      case 'multiple_select':
        return this.multipleSelect(field, scope, alias);
      case 'link_row':
        return this.link(field, scope, alias, fieldsOf);
    }
    if (COMPUTED_TYPES.has(field.type)) {
      const type = storedFormulaType(field);
      if (type.name === 'invalid') return { type: formulaTypes.invalid(`references the invalid field ${field.name}`), sql: 'NULL' };
      if (type.name === 'array') return this.storedArray(column, type, scope);
      return { type, sql: column };
    }
    return { type: formulaTypes.invalid(`referencing a field of type ${field.type} is not supported`), sql: 'NULL' };
  }

  /** `lookup('through', 'target')`: the target's values of the rows linked through `through`. */
  lookup(through: FieldEntity, target: FieldEntity, scope: CompileScope, fieldsOf: FieldsOf): Expr {
    const { relation, alias } = this.linkRelation(through, scope);
    const value = this.read(target, scope, alias, fieldsOf);
    if (value.type.name === 'invalid') return value;
    if (value.relation) return { type: formulaTypes.invalid(`the lookup target field ${target.name} is a list, which cannot be looked up`), sql: 'NULL' };
    return { type: formulaTypes.array(value.type), sql: value.sql, relation };
  }

  /** The rows linked through a link field, as a relation; its rows are aliased `alias`. */
  private linkRelation(field: FieldEntity, scope: CompileScope): { relation: NonNullable<Expr['relation']>; alias: string } {
    const j = scope.nextAlias('j');
    const x = scope.nextAlias('x');
    const side = field.properties.side === 'b';
    const owner = side ? 'row_b' : 'row_a';
    const target = side ? 'row_a' : 'row_b';
    const junction = quote(`database_relation_${Number(field.properties.relation_id ?? field.id)}`);
    const table = quote(rowsTable(Number(field.properties.link_row_table_id)));
    return {
      alias: x,
      relation: {
        from: `${junction} ${j} JOIN ${table} ${x} ON ${x}."id" = ${j}."${target}"`,
        where: [`${j}."${owner}" = ${quote(scope.alias)}."id"`, liveRow(x)],
        // The linked rows in their table's order, as Baserow orders lookups (the joined rows' order, then id).
        order: `${x}."order", ${x}."id"`,
        id: `${x}."id"`,
      },
    };
  }

  /** A link field: the primary values of the linked rows. */
  private link(field: FieldEntity, scope: CompileScope, _alias: string, fieldsOf: FieldsOf): Expr {
    const primary = fieldsOf(Number(field.properties.link_row_table_id)).find((f) => f.primary);
    const { relation, alias } = this.linkRelation(field, scope);
    if (!primary) return { type: formulaTypes.array(formulaTypes.text(true)), sql: `'unnamed row ' || ${alias}."id"`, relation };
    const value = this.read(primary, scope, alias, fieldsOf);
    if (value.type.name === 'invalid' || value.relation) return { type: formulaTypes.array(formulaTypes.text(true)), sql: 'NULL', relation };
    return { type: formulaTypes.array(value.type), sql: value.sql, relation };
  }

  private multipleSelect(field: FieldEntity, scope: CompileScope, alias: string): Expr {
    const j = scope.nextAlias('j');
    const o = scope.nextAlias('o');
    const junction = quote(`database_multipleselect_${field.id}`);
    return {
      type: formulaTypes.array(formulaTypes.singleSelect(field.id)),
      sql: `${o}."id"`,
      relation: {
        from: `${junction} ${j} JOIN ${quote('database_select_option')} ${o} ON ${o}."id" = ${j}."option_id"`,
        where: [`${j}."row_id" = ${quote(alias)}."id"`],
        order: `${j}."id"`,
        id: `${o}."id"`,
      },
    };
  }

  /** A stored array cell of the same row (a lookup field) as a relation over its items. */
  private storedArray(column: string, type: FormulaType, scope: CompileScope): Expr {
    const { relation, value } = this.db.storedArray(column, scope.nextAlias('e'));
    const sub = type.sub!;
    const kind = sub.name === 'number' || sub.name === 'duration' ? 'number' : sub.name === 'boolean' ? 'boolean' : sub.name === 'date' ? (sub.props.date_include_time ? 'datetime' : 'date') : 'text';
    return { type, sql: this.db.fromJsonValue(value, kind), relation };
  }
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
}
