import { Inject, Injectable } from '@nestjs/common';
import { TableOperations as T } from '../../permissions';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import type { ColumnDefinition, Dialect } from '../../core/database/dialect';
import { quote, Sql } from '../../core/database/sql';
import { DIALECT } from '../../core/database/tokens';
import { UnitOfWork } from '../../core/database/unit-of-work';
import type { FieldEntity } from '../fields/field.entity';
import { fieldColumn, rowsTable } from '../fields/field-type';
import { FieldRepository } from '../fields/field.repository';
import { RowRepository } from '../rows/row.repository';
import type { RowCascadeSource, RowWriteCascade, RowWriteChange, RowWriteSession } from '../rows/rows.service';
import { TableSchemaRepository } from '../rows/table-schema.repository';
import { TableContextService } from '../table-context';
import { TableRepository } from '../table.repository';
import type { TableEntity } from '../table.entity';
import { Caches, VersionedCache } from '../../core/cache/caches';
import { FieldEntity as FieldModel } from '../fields/field.entity';
import { FormulaNode, FormulaSyntaxError } from './ast';
import { CompiledFormula, FormulaCompiler, FormulaSchema } from './compiler';
import type { Expr } from './expr';
import { FieldDependencyRepository } from './field-dependency.repository';
import type { FieldDependencyEntity } from './field-dependency.entity';
import { formulaDialect, FormulaDialect } from './formula-dialect';
import { FormulaErrors } from './formula.errors';
import { formulaTypes, FormulaType } from './formula-type';
import { FormulaFunctionRegistry } from './functions/function';
import { parseFormula, renamedReference } from './parser';
import { COMPUTED_TYPES, FORMATTING_KEYS, storedFormulaType } from './stored-type';

/** The live fields of one database, as formulas of any of its tables may read them. */
export interface DatabaseFields {
  databaseId: number;
  byTable: Map<number, FieldEntity[]>;
  byId: Map<number, FieldEntity>;
}

/** A database refusing SQL nested too deeply (PostgreSQL's stack depth limit, SQLite's expression depth and parser stack). */
const STACK_DEPTH_ERROR = /stack depth limit exceeded|Expression tree is too large|parser stack overflow/i;

/** The advisory lock scope of computed-cell recomputation (any fixed number). */
const CASCADE_LOCK_SCOPE = 7701;

const FORMAT_GROUPS: Record<string, readonly string[]> = {
  number: ['number_decimal_places', 'number_prefix', 'number_suffix', 'number_separator'],
  date: ['date_format', 'date_include_time', 'date_time_format', 'date_show_tzinfo', 'date_force_timezone'],
  duration: ['duration_format'],
};

/**
 * Computed fields (formula, lookup, rollup, count): typing their formulas, their stored
 * columns, the dependency graph between fields (across tables, through links) and the
 * set-based recomputation of what a row or field change makes stale, in the writing
 * transaction. Field types consult it; the fields and rows services call its hooks.
 */
@Injectable()
export class FormulaService implements RowCascadeSource {
  readonly sqlDialect: FormulaDialect;
  /**
   * Tables (by id, at a `fields_version`) whose row writes no computed field reads: a table's
   * version changes whenever a computed field starts reading it (`saveDependencies`).
   */
  private readonly untouched: VersionedCache<number, boolean>;
  private readonly compiler: FormulaCompiler;

  constructor(
    @Inject(DIALECT) private readonly dialect: Dialect,
    @Inject(APP_CONFIG) config: AppConfig,
    functions: FormulaFunctionRegistry,
    private readonly fields: FieldRepository,
    private readonly dependencies: FieldDependencyRepository,
    private readonly rows: RowRepository,
    private readonly schema: TableSchemaRepository,
    private readonly contexts: TableContextService,
    private readonly tables: TableRepository,
    private readonly db: UnitOfWork,
    caches: Caches,
  ) {
    this.untouched = caches.versioned<number, boolean>('formula-untouched-tables');
    this.sqlDialect = formulaDialect(dialect);
    this.compiler = new FormulaCompiler(functions, this.sqlDialect, config.formulaMaxTextLength);
  }

  async databaseFields(databaseId: number): Promise<DatabaseFields> {
    const byTable = await this.fields.ofDatabase(databaseId);
    const byId = new Map<number, FieldEntity>();
    for (const list of byTable.values()) for (const field of list) byId.set(field.id, field);
    return { databaseId, byTable, byId };
  }

  /** A field being saved replaces its stored version in the database's fields. */
  private withField(fields: DatabaseFields, field: FieldEntity): DatabaseFields {
    const list = (fields.byTable.get(field.tableId) ?? []).filter((f) => f.id !== field.id);
    list.push(field);
    const byTable = new Map(fields.byTable);
    byTable.set(field.tableId, list);
    const byId = new Map(fields.byId);
    byId.set(field.id, field);
    return { databaseId: fields.databaseId, byTable, byId };
  }

  // ------------------------------------------------------------------ the formula of a field

  /** The syntax tree a computed field computes: its formula, or the one its type builds. */
  formulaOf(field: FieldEntity, fields: DatabaseFields): FormulaNode {
    const p = field.properties;
    const at = { start: 0, end: 0 };
    const nameOf = (id: unknown, fallback: unknown) => fields.byId.get(Number(id))?.name ?? String(fallback ?? '');
    const lookup = (): FormulaNode => ({ kind: 'lookup', through: nameOf(p.through_field_id, p.through_field_name), target: nameOf(p.target_field_id, p.target_field_name), ...at });
    switch (field.type) {
      case 'lookup':
        return lookup();
      case 'rollup':
        return { kind: 'call', name: String(p.rollup_function ?? 'sum'), args: [lookup()], ...at };
      case 'count':
        return { kind: 'call', name: 'count', args: [{ kind: 'field', name: nameOf(p.through_field_id, p.through_field_name), ...at }], ...at };
      default:
        return parseFormula(String(p.formula ?? ''));
    }
  }

  private schemaFor(field: FieldEntity, fields: DatabaseFields): FormulaSchema {
    return { tableId: field.tableId, fields: fields.byTable.get(field.tableId) ?? [], fieldsOf: (id) => fields.byTable.get(id) ?? [], selfId: field.id };
  }

  /**
   * Types a computed field's formula. A formula the user gave (`strict`) must type: its
   * syntax, self and circular references and type errors are answered as Baserow's errors.
   * Otherwise (a field it reads changed) an error makes it `invalid` with that error.
   */
  async type(field: FieldEntity, fields: DatabaseFields, strict: boolean): Promise<CompiledFormula> {
    fields = this.withField(fields, field);
    let node: FormulaNode;
    try {
      node = this.formulaOf(field, fields);
    } catch (error) {
      // Nesting too deep is Baserow's MaximumFormulaSizeError, an error with the formula like a syntax error.
      if (!(error instanceof FormulaSyntaxError)) throw error;
      if (strict) throw FormulaErrors.withFormula((error as Error).message);
      return { expr: { type: formulaTypes.invalid((error as Error).message), sql: 'NULL' }, dependencies: [], broken: [], selfReference: false };
    }
    const compiled = this.compiler.compile(node, this.schemaFor(field, fields), new Sql(this.dialect, { numbered: true }));
    if (compiled.selfReference) {
      if (strict) throw FormulaErrors.selfReference();
      compiled.expr = { type: formulaTypes.invalid('a formula cannot reference itself'), sql: 'NULL' };
    } else if (await this.isCircular(field.id, compiled, fields.databaseId)) {
      if (strict) throw FormulaErrors.circularReference();
      compiled.expr = { type: formulaTypes.invalid('it references a field that references it'), sql: 'NULL' };
    }
    if (strict && compiled.expr.type.name === 'invalid') throw FormulaErrors.withFormula(compiled.expr.type.error ?? 'invalid formula');
    return compiled;
  }

  /** Whether a field it would read depends, through the stored graph, on the field itself. */
  private async isCircular(fieldId: number, compiled: CompiledFormula, databaseId: number): Promise<boolean> {
    const edges = await this.dependencies.ofDatabase(databaseId);
    const dependenciesOf = new Map<number, number[]>();
    for (const edge of edges) if (edge.dependencyId !== null && edge.dependantId !== fieldId) dependenciesOf.set(edge.dependantId, [...(dependenciesOf.get(edge.dependantId) ?? []), edge.dependencyId]);
    const seen = new Set<number>();
    const stack = compiled.dependencies.map((d) => d.fieldId);
    while (stack.length) {
      const id = stack.pop()!;
      if (id === fieldId) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(dependenciesOf.get(id) ?? []));
    }
    return false;
  }

  /**
   * Stores what typing found in the field's properties (`formula_type`, `error`, `nullable`,
   * `array_formula_type` and the formatting keys of its result type). Formatting the user set
   * (`overrides`, kept in `formatting_overrides`) wins over the derived one while it applies.
   */
  applyType(field: FieldEntity, type: FormulaType, given: Record<string, unknown> = {}): void {
    const p = field.properties;
    const overrides = new Set<string>(Array.isArray(p.formatting_overrides) ? p.formatting_overrides : []);
    for (const key of FORMATTING_KEYS) if (given[key] !== undefined && given[key] !== null) overrides.add(key);
    const element = type.sub ?? type;
    const applicable = new Set(FORMAT_GROUPS[element.name] ?? []);
    p.formula_type = type.name;
    p.array_formula_type = type.sub?.name ?? null;
    p.error = type.name === 'invalid' ? (type.error ?? null) : null;
    p.nullable = type.nullable;
    for (const key of FORMATTING_KEYS) {
      if (!applicable.has(key)) p[key] = null;
      else if (overrides.has(key) && (given[key] ?? p[key]) !== null && (given[key] ?? p[key]) !== undefined && key !== 'date_include_time') p[key] = given[key] ?? p[key];
      else p[key] = element.props[key] ?? null;
    }
    if (element.name === 'single_select') p.select_options_field_id = element.props.select_options_field_id ?? null;
    else delete p.select_options_field_id;
    p.formatting_overrides = [...overrides].filter((key) => applicable.has(key));
  }

  /** The fields a computed field reads, by the graph (its links included). */
  async readFieldIds(fieldId: number): Promise<number[]> {
    const ids = new Set<number>();
    for (const edge of await this.dependencies.ofDependant(fieldId)) for (const id of [edge.dependencyId, edge.viaId]) if (id !== null) ids.add(id);
    return [...ids];
  }

  /**
   * Saves a typed field's edges in the graph. The tables whose writes now reach the field (its
   * dependencies', and the linked tables of links it reads) get a new `fields_version`, so
   * their cached "nothing computed depends on this table" (`beginRowWrite`) is dropped.
   */
  async saveDependencies(field: FieldEntity, compiled: CompiledFormula, fields: DatabaseFields): Promise<void> {
    await this.dependencies.replace(field.id, fields.databaseId, { dependencies: compiled.dependencies, broken: compiled.broken });
    const tables = new Set<number>();
    for (const { fieldId } of compiled.dependencies) {
      const dependency = fields.byId.get(fieldId);
      if (!dependency || dependency.tableId === field.tableId) continue;
      tables.add(dependency.tableId);
    }
    for (const { fieldId } of compiled.dependencies) {
      const link = fields.byId.get(fieldId);
      if (link?.type === 'link_row') tables.add(Number(link.properties.link_row_table_id));
    }
    tables.delete(field.tableId);
    for (const tableId of tables) await this.tables.bump(tableId, 'fields_version');
  }

  /**
   * `POST /api/database/formula/{table_id}/type/`: the type a formula field named `name`
   * would have (the field of that name, when there is one, is the one being edited).
   */
  async typeFormula(userId: number, tableId: number, formula: string, name: string): Promise<Record<string, unknown>> {
    const context = await this.contexts.require(tableId, userId, T.typeFormula);
    const existing = context.fields.find((f) => f.name === name);
    const field = Object.assign(new FieldModel(), { id: existing?.id ?? 0, tableId, name, type: 'formula', properties: { formula } });
    const compiled = await this.type(field, await this.databaseFields(context.table.databaseId), true);
    this.applyType(field, compiled.expr.type);
    const { formatting_overrides: _, select_options_field_id: __, ...answered } = field.properties;
    return answered;
  }

  // ------------------------------------------------------------------ storage

  /** The column holding a computed field's values, by its result type. */
  columnOf(field: FieldEntity): ColumnDefinition {
    const type = storedFormulaType(field);
    const name = fieldColumn(field);
    switch (type.name) {
      case 'number':
        return { name, kind: 'decimal', scale: Number(type.props.number_decimal_places ?? 0) };
      case 'boolean':
        return { name, kind: 'boolean' };
      case 'date':
        return { name, kind: type.props.date_include_time ? 'datetime' : 'date' };
      case 'duration':
        return { name, kind: 'real' };
      case 'single_select':
        return { name, kind: 'integer' };
      case 'array':
      case 'link':
      case 'button':
      case 'multiple_select':
      case 'single_file':
      case 'multiple_collaborators':
        return { name, kind: 'json' };
      default:
        return { name, kind: 'text' };
    }
  }

  /** The SQL of the value stored in the column for an expression of the field's type. */
  private storeSql(expr: Expr, field: FieldEntity): string {
    const type = storedFormulaType(field);
    if (expr.relation) return this.sqlDialect.jsonItems(expr.relation, this.jsonValue(expr));
    if (type.name === 'number') return this.sqlDialect.round(expr.sql, Number(type.props.number_decimal_places ?? 0));
    return expr.sql;
  }

  /** One array element as the JSON value kept in the stored items. */
  private jsonValue(expr: Expr): string {
    const sub = expr.type.sub!;
    switch (sub.name) {
      case 'number':
      case 'duration':
        return this.sqlDialect.jsonNumberValue(expr.sql);
      case 'boolean':
        return this.sqlDialect.jsonBoolean(expr.sql);
      case 'single_select':
        return this.sqlDialect.jsonSelectOption(expr.sql);
      case 'link':
      case 'button':
        return expr.sql;
      default:
        return this.sqlDialect.jsonText(this.dialect.castText(expr.sql));
    }
  }

  /**
   * Recomputes a computed field's column for the given rows (all rows when null): one
   * UPDATE, whatever the number of rows. An invalid formula's cells are emptied.
   */
  async recompute(field: FieldEntity, fields: DatabaseFields, rowIds: readonly number[] | null): Promise<void> {
    if (rowIds && !rowIds.length) return;
    const sql = new Sql(this.dialect, { numbered: true });
    let value = 'NULL';
    if (storedFormulaType(field).name !== 'invalid') {
      const compiled = this.compiler.compile(this.formulaOf(field, fields), this.schemaFor(field, fields), sql);
      if (compiled.expr.type.name !== 'invalid') value = this.storeSql(compiled.expr, field);
    }
    const where = rowIds ? ` WHERE "t"."id" IN ${this.dialect.idsIn(rowIds, (v) => sql.param(v))}` : '';
    try {
      await this.rows.query(`UPDATE ${quote(rowsTable(field.tableId))} AS "t" SET ${quote(fieldColumn(field))} = ${value}${where}`, sql.bindings());
    } catch (error) {
      // Baserow answers the database's own "stack depth limit exceeded" as a formula too deeply nested.
      if (STACK_DEPTH_ERROR.test(String((error as Error)?.message))) throw FormulaErrors.tooDeeplyNested();
      throw error;
    }
  }

  /**
   * Types a computed field again after something it reads changed, and recomputes all its
   * cells: its column is replaced when its result type needs another one. Answers whether
   * its result type changed (`formula_type`, `array_formula_type`): what views keep about
   * it (sorts, filters, aggregations) may no longer apply.
   */
  async refresh(field: FieldEntity, fields: DatabaseFields): Promise<boolean> {
    const before = this.columnOf(field);
    const resultBefore = resultTypeOf(field);
    followNames(field, fields);
    const compiled = await this.type(field, fields, false);
    this.applyType(field, compiled.expr.type);
    const after = this.columnOf(field);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await this.schema.dropColumn(field.tableId, before.name);
      await this.schema.addColumn(field.tableId, after);
      if (field.dbIndex) {
        if (this.indexable(field)) await this.schema.createIndexes(field.tableId, after.name);
        else field.dbIndex = false;
      }
    }
    await this.saveDependencies(field, compiled, fields);
    await this.fields.save(field);
    await this.tables.bump(field.tableId, 'fields_version');
    await this.recompute(field, this.withField(fields, field), null);
    this.db.rowsChanged(field.tableId);
    return resultTypeOf(field) !== resultBefore;
  }

  /** Whether the field's result type can have a database index. */
  indexable(field: FieldEntity): boolean {
    return !['json'].includes(this.columnOf(field).kind) && storedFormulaType(field).name !== 'invalid';
  }

  // ------------------------------------------------------------------ field changes

  /**
   * After fields of a table were created, changed, renamed, trashed or restored: every
   * computed field that reads them (transitively, across tables), or read a name that now
   * names a field, is typed again and recomputed, in dependency order. A rename rewrites
   * the formulas that used the old name. Answers the computed fields it changed (`related`),
   * and those of them whose result type changed (`retyped`).
   */
  async fieldsChanged(databaseId: number, changed: { field: FieldEntity; previousName?: string }[]): Promise<{ related: FieldEntity[]; retyped: FieldEntity[] }> {
    const edges = await this.dependencies.ofDatabase(databaseId);
    if (!edges.length) return { related: [], retyped: [] };
    let fields = await this.databaseFields(databaseId);
    for (const { field, previousName } of changed) {
      if (previousName !== undefined && previousName !== field.name) await this.rewriteRenamed(field, previousName, edges, fields);
    }
    const seeds = new Set<number>();
    for (const { field } of changed) {
      for (const edge of edges) {
        if (edge.dependencyId === field.id || edge.viaId === field.id) seeds.add(edge.dependantId);
        if (edge.brokenTableId === field.tableId && edge.brokenName === field.name) seeds.add(edge.dependantId);
      }
    }
    const order = this.dependantsInOrder(seeds, edges);
    const refreshed: FieldEntity[] = [];
    const retyped: FieldEntity[] = [];
    for (const id of order) {
      const field = fields.byId.get(id);
      if (!field || changed.some((c) => c.field.id === id)) continue;
      const copy = structuredClone(field);
      if (await this.refresh(copy, fields)) retyped.push(copy);
      fields = this.withField(fields, copy);
      refreshed.push(copy);
    }
    return { related: refreshed, retyped };
  }

  /**
   * `field('Old')` and `lookup('Old', …)` in formulas become the new name (formula fields keep
   * names, not ids); the rest of each formula's text stays as written.
   */
  private async rewriteRenamed(field: FieldEntity, previousName: string, edges: FieldDependencyEntity[], fields: DatabaseFields): Promise<void> {
    const dependants = new Set(edges.filter((e) => e.dependencyId === field.id).map((e) => e.dependantId));
    for (const id of dependants) {
      const dependant = fields.byId.get(id);
      if (!dependant || dependant.type !== 'formula') continue;
      const text = String(dependant.properties.formula ?? '');
      let node: FormulaNode;
      try {
        node = parseFormula(text);
      } catch {
        continue;
      }
      const edits = renameInFormula(node, dependant.tableId, field, previousName, fields);
      if (!edits.length) continue;
      let rewritten = text;
      try {
        // From the end, so the spans before each edit keep their offsets.
        for (const edit of edits.sort((a, b) => b.node.start - a.node.start)) {
          rewritten = rewritten.slice(0, edit.node.start) + renamedReference(text, edit.node, edit.names) + rewritten.slice(edit.node.end);
        }
      } catch {
        // A name the formula language cannot write: the reference breaks, as a deleted field's would.
        continue;
      }
      dependant.properties.formula = rewritten;
      await this.fields.save(dependant);
      await this.tables.bump(dependant.tableId, 'fields_version');
    }
  }

  /** The computed fields reachable from `seeds` (them included), each after what it reads. */
  private dependantsInOrder(seeds: Set<number>, edges: FieldDependencyEntity[]): number[] {
    const dependantsOf = new Map<number, number[]>();
    for (const edge of edges) {
      for (const source of [edge.dependencyId, edge.viaId]) {
        if (source === null) continue;
        dependantsOf.set(source, [...(dependantsOf.get(source) ?? []), edge.dependantId]);
      }
    }
    const reachable = new Set<number>();
    const stack = [...seeds];
    while (stack.length) {
      const id = stack.pop()!;
      if (reachable.has(id)) continue;
      reachable.add(id);
      stack.push(...(dependantsOf.get(id) ?? []));
    }
    // Depth-first post order over "reads" edges gives each field after what it reads.
    const readsOf = new Map<number, number[]>();
    for (const edge of edges) if (edge.dependencyId !== null && reachable.has(edge.dependantId)) readsOf.set(edge.dependantId, [...(readsOf.get(edge.dependantId) ?? []), edge.dependencyId]);
    const order: number[] = [];
    const state = new Map<number, 'visiting' | 'done'>();
    const visit = (id: number) => {
      if (state.get(id)) return;
      state.set(id, 'visiting');
      for (const read of readsOf.get(id) ?? []) if (reachable.has(read)) visit(read);
      state.set(id, 'done');
      order.push(id);
    };
    for (const id of [...reachable].sort((a, b) => a - b)) visit(id);
    return order;
  }

  /**
   * Recomputes, in every database, the computed fields whose formula calls now() or today()
   * and every field that reads them (their stored values age with the clock). Answers the
   * tables whose rows changed.
   */
  async refreshClockFormulas(databaseId: number): Promise<number[]> {
    const edges = await this.dependencies.ofDatabase(databaseId);
    const fields = await this.databaseFields(databaseId);
    const seeds = new Set<number>();
    for (const field of fields.byId.values()) {
      if (field.type !== 'formula' || storedFormulaType(field).name === 'invalid') continue;
      try {
        if (callsClock(parseFormula(String(field.properties.formula ?? '')))) seeds.add(field.id);
      } catch {
        continue;
      }
    }
    if (!seeds.size) return [];
    const tables = new Set<number>();
    for (const id of this.dependantsInOrder(seeds, edges)) {
      const field = fields.byId.get(id);
      if (!field) continue;
      await this.recompute(field, fields, null);
      tables.add(field.tableId);
    }
    for (const tableId of tables) this.db.rowsChanged(tableId);
    return [...tables];
  }

  databasesWithComputedFields(): Promise<number[]> {
    return this.dependencies.databaseIds();
  }

  // ------------------------------------------------------------------ row changes

  /**
   * Starts a row write of a database with computed fields (null without any): on PostgreSQL
   * writers of one database's computed cells take turns from here until commit, so each
   * plans and recomputes on what the one before committed, and none waits for another's row
   * lock while holding the turn. The graph is read once the turn has come.
   */
  async beginRowWrite(table: Pick<TableEntity, 'id' | 'databaseId' | 'fieldsVersion'>): Promise<RowWriteSession | null> {
    // Most tables have nothing computed reading them: known without a query once seen.
    if (this.untouched.get(table.id, table.fieldsVersion)) return null;
    const databaseId = table.databaseId;
    const edges = await this.dependencies.ofDatabase(databaseId);
    if (!edges.some((e) => e.dependencyId !== null)) {
      this.untouched.set(table.id, table.fieldsVersion, true);
      return null;
    }
    const lock = this.dialect.transactionLock(CASCADE_LOCK_SCOPE, databaseId);
    if (!lock) return { plan: (write) => this.planRowWrite(write, edges) };
    await this.rows.query(lock);
    const current = await this.dependencies.ofDatabase(databaseId);
    return { plan: (write) => this.planRowWrite(write, current) };
  }

  /**
   * What a row write makes stale: the computed cells of the written rows, and through links
   * the computed cells of other rows (other tables, or other rows of a self-linked table).
   * Nothing is written until `apply`; the caller reads the other rows before and after it.
   * Null when no computed field is affected.
   */
  private async planRowWrite(write: RowWriteChange, edges: FieldDependencyEntity[]): Promise<RowWriteCascade | null> {
    const fields = await this.databaseFields(write.databaseId);
    const own = fields.byTable.get(write.tableId) ?? [];
    const written = write.fieldIds === 'all' ? own.filter((f) => !COMPUTED_TYPES.has(f.type)).map((f) => f.id) : write.fieldIds;
    /** Changed cells: field id → row ids. */
    const cells = new Map<number, Set<number>>();
    const mark = (fieldId: number, ids: Iterable<number>) => {
      const set = cells.get(fieldId) ?? new Set<number>();
      for (const id of ids) set.add(id);
      cells.set(fieldId, set);
    };
    for (const id of written) mark(id, write.rowIds);
    // A link cell changed: so did the related link cells of the rows linked before and after.
    for (const id of written) {
      const link = fields.byId.get(id);
      if (link?.type !== 'link_row') continue;
      const related = fields.byId.get(Number(link.properties.related_field_id));
      const targets = new Set<number>([...(write.previousLinks?.get(id) ?? []), ...(await this.linkedRows(link, write.rowIds))]);
      if (related && targets.size) mark(related.id, targets);
    }
    const seeds = new Set<number>();
    for (const edge of edges) if ((edge.dependencyId !== null && cells.has(edge.dependencyId)) || (edge.viaId !== null && cells.has(edge.viaId))) seeds.add(edge.dependantId);
    // New, trashed and restored rows: every computed field of their table is (re)computed.
    if (write.fieldIds === 'all') for (const f of own) if (COMPUTED_TYPES.has(f.type)) seeds.add(f.id);
    const order = this.dependantsInOrder(seeds, edges);
    const steps: { field: FieldEntity; rowIds: number[] }[] = [];
    for (const id of order) {
      const field = fields.byId.get(id);
      if (!field || storedFormulaType(field).name === 'invalid') continue;
      const rows = new Set<number>(write.fieldIds === 'all' && field.tableId === write.tableId ? write.rowIds : []);
      for (const edge of edges) {
        if (edge.dependantId !== id || edge.dependencyId === null) continue;
        const changed = cells.get(edge.dependencyId);
        if (!changed?.size) continue;
        if (edge.viaId === null) for (const row of changed) rows.add(row);
        else {
          const via = fields.byId.get(edge.viaId);
          if (via) for (const row of await this.rowsLinkingTo(via, [...changed])) rows.add(row);
        }
      }
      if (!rows.size) continue;
      mark(id, rows);
      steps.push({ field, rowIds: [...rows] });
    }
    if (!steps.length) return null;
    const byTable = new Map<number, { rowIds: Set<number>; fieldIds: Set<number> }>();
    const writtenRows = new Set(write.rowIds);
    for (const step of steps) {
      const entry = byTable.get(step.field.tableId) ?? { rowIds: new Set<number>(), fieldIds: new Set<number>() };
      for (const row of step.rowIds) if (step.field.tableId !== write.tableId || !writtenRows.has(row)) entry.rowIds.add(row);
      entry.fieldIds.add(step.field.id);
      byTable.set(step.field.tableId, entry);
    }
    return {
      rows: [...byTable].filter(([, e]) => e.rowIds.size).map(([tableId, e]) => ({ tableId, rowIds: [...e.rowIds].sort((a, b) => a - b), fieldIds: [...e.fieldIds] })),
      apply: async () => {
        for (const step of steps) await this.recompute(step.field, fields, step.rowIds);
      },
    };
  }

  /** Rows a link field's cells of `rowIds` point at. */
  private async linkedRows(link: FieldEntity, rowIds: number[]): Promise<number[]> {
    const { table, owner, target } = this.junctionOf(link);
    const sql = new Sql(this.dialect);
    const rows = await this.rows.query<{ id: unknown }>(`SELECT DISTINCT ${quote(target)} AS "id" FROM ${quote(table)} WHERE ${quote(owner)} IN ${this.dialect.idsIn(rowIds, (v) => sql.param(v))}`, sql.params);
    return rows.map((r) => Number(r.id));
  }

  /** Rows of the link field's table whose cells point at any of `targetIds`. */
  private async rowsLinkingTo(link: FieldEntity, targetIds: number[]): Promise<number[]> {
    const { table, owner, target } = this.junctionOf(link);
    const sql = new Sql(this.dialect);
    const rows = await this.rows.query<{ id: unknown }>(`SELECT DISTINCT ${quote(owner)} AS "id" FROM ${quote(table)} WHERE ${quote(target)} IN ${this.dialect.idsIn(targetIds, (v) => sql.param(v))}`, sql.params);
    return rows.map((r) => Number(r.id));
  }

  private junctionOf(link: FieldEntity): { table: string; owner: string; target: string } {
    const b = link.properties.side === 'b';
    return { table: `database_relation_${Number(link.properties.relation_id ?? link.id)}`, owner: b ? 'row_b' : 'row_a', target: b ? 'row_a' : 'row_b' };
  }
}

/** A computed field's stored result type (`formula_type`, with `array_formula_type`), to compare. */
function resultTypeOf(field: FieldEntity): string {
  return `${String(field.properties.formula_type)}(${String(field.properties.array_formula_type ?? '')})`;
}

/**
 * A lookup's (rollup's, count's) link and target fields keep the names they are called now
 * (renamed since); a field that is gone keeps its last name, by which it is found again.
 */
function followNames(field: FieldEntity, fields: DatabaseFields): void {
  const p = field.properties;
  for (const key of ['through_field', 'target_field']) {
    const current = p[`${key}_id`] === undefined || p[`${key}_id`] === null ? undefined : fields.byId.get(Number(p[`${key}_id`]));
    if (current) p[`${key}_name`] = current.name;
  }
}

/** Whether a formula calls now() or today(). */
function callsClock(node: FormulaNode): boolean {
  return node.kind === 'call' && (node.name === 'now' || node.name === 'today' || node.args.some(callsClock));
}

type ReferenceNode = Extract<FormulaNode, { kind: 'field' | 'lookup' }>;

/** The references to `field` (formerly `previousName`) in a formula of table `tableId`, each with its names after the rename. */
function renameInFormula(node: FormulaNode, tableId: number, field: FieldEntity, previousName: string, fields: DatabaseFields): { node: ReferenceNode; names: string[] }[] {
  const edits: { node: ReferenceNode; names: string[] }[] = [];
  const visit = (n: FormulaNode) => {
    if (n.kind === 'field' && tableId === field.tableId && n.name === previousName) {
      edits.push({ node: n, names: [field.name] });
    } else if (n.kind === 'lookup') {
      const renameThrough = tableId === field.tableId && n.through === previousName;
      const through = (fields.byTable.get(tableId) ?? []).find((f) => f.name === (renameThrough ? field.name : n.through));
      const renameTarget = !!through && Number(through.properties.link_row_table_id) === field.tableId && n.target === previousName;
      if (renameThrough || renameTarget) edits.push({ node: n, names: [renameThrough ? field.name : n.through, renameTarget ? field.name : n.target] });
    } else if (n.kind === 'call') n.args.forEach(visit);
  };
  visit(node);
  return edits;
}
