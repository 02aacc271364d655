import { createHash } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { quote, Sql } from '../../core/database/sql';
import { UnitOfWork } from '../../core/database/unit-of-work';
import type { FieldEntity } from '../fields/field.entity';
import { FieldTypeRegistry, LinkedTables, rowsTable, SearchSource } from '../fields/field-type';
import { TableContext, TableContextService } from '../table-context';
import { CellWords, cellWords, exactRowId, searchWords } from './full-text';
import { SearchDocument, SearchLayout, SearchTrigger } from './search-dialect';
import { SearchIndexRepository, SearchIndexState } from './search-index.repository';

/** The advisory lock scope of a table's index (any fixed number; the formula cascade has 7701). */
const SEARCH_LOCK_SCOPE = 7702;
/** The advisory lock scope of installing triggers (taken alone, before any index's lock). */
const RECONCILE_LOCK_SCOPE = 7703;
/** A write's commit indexes up to this many marked rows of a table; more (a bulk write) are left for the next search. */
const COMMIT_ROWS_MAX = 2000;
/** Rows read per statement when recomputing marked rows, and when recomputing whole fields or tables. */
const ROW_BATCH = 500;
const FIELD_BATCH = 2000;
/** Marks for more than this share of the table's rows: the whole table is recomputed instead. */
const FULL_SHARE = 0.5;
/** The `via_field_id` of marks of rows just inserted into the table (which have no entries yet). */
const NEW_ROW = -1;
/** The row alias of the texts' SQL. */
const ALIAS = 'r';
/** The global trigger (consumer 0) marking renamed users: their names are in collaborator cells. */
const USERS_TRIGGER: SearchTrigger = { consumer: 0, table: 'user', event: 'UPDATE', column: 'id', via: 0, columns: ['first_name'] };
/** While no table has an index, how often another instance's first one is looked for (ms). */
const NO_INDEX_RECHECK_MS = 60_000;

type Mode = 'build' | 'search' | 'commit';

/** A searchable field of an indexed table: how to build its text SQL, the hash of that SQL, what else it reads. */
interface FieldSpec {
  field: FieldEntity;
  build: (sql: Sql) => string;
  /** Hash of the SQL and its values (`u:` first when the text reads users' names). */
  hash: string;
  sources: SearchSource[];
}

/**
 * Full-text search (`search_mode=full-text-with-count`), indexed on both databases (SQLite
 * FTS5, PostgreSQL tsvector with GIN, see search-dialect.ts): a document per row, holding in a
 * cell per searchable field the words of its `searchText` (see full-text.ts).
 *
 * A table gets its index on its first full-text search, and keeps it fresh from then on:
 * - triggers on the table, on its junction tables and on the tables its links read (installed
 *   with the index, checked again whenever the fields of these tables change) mark the rows
 *   every write touches, whichever code wrote them (row endpoints, imports, set-based formula
 *   recomputation, raw SQL);
 * - before a write's transaction commits, the marks it made are consumed and the entries of
 *   those rows recomputed, so the index is never behind what a search can see; a bulk write
 *   (more than COMMIT_ROWS_MAX rows) leaves its marks to the next search instead;
 * - when the searchable fields change (a field created, converted, trashed, restored or
 *   deleted, an option renamed, a date format changed, another primary field in a linked
 *   table…), the next search rebuilds the index;
 * - every search first checks, in one query, that nothing is pending for its table.
 * Counts are cached by the table's versions and by the index's version, bumped by changes of
 * the entries that the table's own versions do not count (linked rows, users, fields).
 */
@Injectable()
export class SearchIndexService implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SearchIndexService.name);
  /**
   * Whether any table may have an index (and so triggers making marks). While none has, writes
   * skip the end-of-transaction check. This process's first index sets it at once; another
   * instance's is found within NO_INDEX_RECHECK_MS, and until then its marks wait for the next
   * search, which consumes pending marks first (as after a bulk write): never a stale answer.
   */
  private anyIndex = true;
  private recheck: NodeJS.Timeout | null = null;
  private indexesFound = 0;
  /** Specs by table, with the stamp they were built at (the SQL of a table's texts only changes with the fields versions). */
  private readonly built = new Map<number, { stamp: string; specs: FieldSpec[] }>();

  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: SearchIndexRepository,
    private readonly fieldTypes: FieldTypeRegistry,
    private readonly contexts: TableContextService,
  ) {}

  onModuleInit(): void {
    this.db.beforeCommit(() => this.afterWrite());
  }

  async onApplicationBootstrap(): Promise<void> {
    const found = this.indexesFound;
    if ((await this.indexesRegistered()) || this.indexesFound !== found) return;
    this.anyIndex = false;
    this.recheck = setInterval(() => void this.indexesRegistered().then((found) => found && this.indexFound()), NO_INDEX_RECHECK_MS);
    this.recheck.unref();
  }

  onModuleDestroy(): void {
    if (this.recheck) clearInterval(this.recheck);
    this.recheck = null;
  }

  /** A table got an index (here, or found registered by another instance): writes check for marks from now on. */
  private indexFound(): void {
    this.anyIndex = true;
    this.indexesFound += 1;
    this.onModuleDestroy();
  }

  private async indexesRegistered(): Promise<boolean> {
    try {
      return await this.repo.anyRegistered();
    } catch {
      return true;
    }
  }

  /**
   * The WHERE condition (on the row alias `r`) of a full-text search of `term` in `fields` of
   * the table (all its fields when absent): rows with a cell holding the term's words, the
   * last as a prefix, or the row whose id the term is. No row when no word is left.
   */
  async condition(context: TableContext, term: string, fields: FieldEntity[] | undefined, sql: Sql, linked?: Map<number, TableContext>): Promise<string> {
    const words = searchWords(term);
    if (!words.length) return '1 = 0';
    const state = await this.ensureFresh(context, linked);
    const subset = fields && fields !== context.fields ? fields.map((f) => f.id) : null;
    const columns = subset?.map((id) => state.layout.slots[id]).filter((slot): slot is number => slot !== undefined) ?? [];
    const id = exactRowId(term);
    const rows = [];
    if (!subset || columns.length) rows.push(this.repo.search.matchingRowIds(context.table.id, words, subset ? { columns } : null, sql));
    if (id !== null) rows.push(`SELECT CAST(${sql.param(id)} AS INTEGER)`);
    if (!rows.length) return '1 = 0';
    // The index version is part of the SQL, so counts cached by it follow every change of the entries.
    return `${quote(ALIAS)}."id" IN (${rows.join(' UNION ALL ')}) /* full-text index v${state.version} */`;
  }

  /** Drops a table's index (the table is dropped for good). */
  async drop(tableId: number): Promise<void> {
    await this.repo.drop(tableId);
  }

  /** Brings the table's index up to date (building it on the first search); answers its state. */
  private async ensureFresh(context: TableContext, linked?: Map<number, TableContext>): Promise<SearchIndexState> {
    const state = await this.repo.state(context.table.id);
    if (state && !state.pending) {
      const { specs, stamp } = await this.specs(context, linked);
      if (stamp === state.stamp && this.upToDate(state, specs)) return state;
    }
    const fresh = await this.db.run(() => this.refresh(context.table.id, state ? 'search' : 'build'));
    return fresh ?? { fields: {}, stamp: '', version: 0, layout: { columns: 0, slots: {} } };
  }

  private upToDate(state: SearchIndexState, specs: FieldSpec[]): boolean {
    return specs.length === Object.keys(state.fields).length && specs.every((spec) => state.fields[spec.field.id] === spec.hash);
  }

  /**
   * Before a write commits: the marks it made, consumed table by table (in id order, as their
   * locks are taken). A failure leaves the marks to the next search rather than fail the write.
   */
  private async afterWrite(): Promise<void> {
    if (!this.anyIndex) return;
    // One statement: on PostgreSQL it reads no mark unless the transaction's triggers made some.
    const pending = await this.repo.pendingTables();
    // Most writes touch no indexed table: no savepoint for them.
    if (!pending.length) return;
    const error = await this.repo.savepoint(async () => {
      for (const { tableId, marks } of pending) {
        if (tableId === 0) await this.usersRenamed();
        // A bulk write leaves its marks to the next search.
        else if (marks <= COMMIT_ROWS_MAX) await this.refresh(tableId, 'commit');
      }
    });
    if (error) this.logger.warn(`The full-text index was left to the next search: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** Renamed users: every field whose text reads users' names is recomputed by its table's next search. */
  private async usersRenamed(): Promise<void> {
    await this.repo.takePending(0);
    for (const { tableId } of await this.repo.registered()) {
      await this.lock(tableId);
      const state = await this.repo.state(tableId);
      if (!state) continue;
      const fields = Object.fromEntries(Object.entries(state.fields).filter(([, hash]) => !hash.startsWith('u:')));
      if (Object.keys(fields).length !== Object.keys(state.fields).length) await this.repo.saveFields(tableId, fields);
    }
  }

  private async lock(tableId: number): Promise<void> {
    const lock = this.repo.dialect.transactionLock(SEARCH_LOCK_SCOPE, tableId);
    if (lock) await this.repo.query(lock);
  }

  /**
   * Recomputes what is stale in a table's index, inside the caller's transaction, holding the
   * table's lock (PostgreSQL: concurrent refreshes of one table take turns, and each reads what
   * the one before committed). `build` creates the index; `commit` (a write's own marks)
   * leaves whole-table rebuilds and the triggers to the next search. Answers the index's state,
   * null when the table has none.
   */
  private async refresh(tableId: number, mode: Mode): Promise<SearchIndexState | null> {
    // The triggers are checked (DDL, which waits for writers of the tables it touches) before the
    // index's lock is taken, which those writers may be waiting for at their commit.
    const missing = mode === 'commit' ? null : await this.checkTriggers(tableId);
    await this.lock(tableId);
    let state = await this.repo.state(tableId);
    // Built by another search meanwhile.
    if (state && mode === 'build') mode = 'search';
    if (!state) {
      if (mode !== 'build') {
        await this.repo.dropPending(tableId);
        return null;
      }
      state = { ...(await this.repo.register(tableId)), pending: true };
      this.indexFound();
    }
    // A write's commit on a table whose fields did not change: the specs the last search used.
    const cached = mode === 'commit' ? await this.cachedSpecs(tableId, state.stamp) : null;
    let found = cached ? { specs: cached, stamp: state.stamp } : null;
    if (!found) {
      const context = await this.contexts.ofTable(tableId);
      if (!context) {
        // Trashed: built anew when restored.
        await this.repo.dropPending(tableId);
        await this.repo.saveFields(tableId, {});
        return state;
      }
      found = await this.specs(context);
    }
    const { specs } = found;
    // A write's commit keeps the stamp its triggers were checked at: the next search checks them.
    const stamp = missing ? found.stamp : state.stamp;
    const next: SearchIndexState = { fields: { ...state.fields }, stamp, version: state.version, layout: state.layout };
    // What a missing trigger (new, or gone with its table) could not mark is recomputed.
    if (missing) for (const spec of specs) if (missing.all || missing.fields.has(spec.field.id)) delete next.fields[spec.field.id];
    // Any change of the documents bumps the index's version (counts are cached by it: a link
    // changed from the other table, or a linked row renamed, does not bump this table's rows version).
    const wrote = await this.refreshDocuments(tableId, mode, specs, next);
    if (wrote) next.version += 1;
    if (wrote || JSON.stringify(next) !== JSON.stringify({ fields: state.fields, stamp: state.stamp, version: state.version, layout: state.layout })) await this.repo.saveState(tableId, next);
    return next;
  }

  /**
   * Installs and drops the table's triggers when the fields versions it was last checked at
   * changed (one check at a time, whatever the table: reconciling also installs the shared
   * trigger on users). Answers what the missing triggers leave to recompute.
   */
  private async checkTriggers(tableId: number): Promise<{ all: boolean; fields: Set<number> }> {
    const lock = this.repo.dialect.transactionLock(RECONCILE_LOCK_SCOPE, 0);
    if (lock) await this.repo.query(lock);
    const state = await this.repo.state(tableId);
    const context = await this.contexts.ofTable(tableId);
    if (!context) return { all: false, fields: new Set() };
    const { specs, stamp } = await this.specs(context);
    if (state && state.stamp === stamp) return { all: false, fields: new Set() };
    return this.reconcile(tableId, specs);
  }

  /**
   * The specs last built for a table when its fields versions (and those of the tables it links
   * to) are still those of `stamp`: one query instead of reading the tables' contexts.
   */
  private async cachedSpecs(tableId: number, stamp: string): Promise<FieldSpec[] | null> {
    const known = this.built.get(tableId);
    if (!known || known.stamp !== stamp || !stamp) return null;
    const ids = stamp.split(',').map((part) => Number(part.split(':')[0]));
    return (await this.repo.fieldsVersions(ids)) === stamp ? known.specs : null;
  }

  /** Whether so many rows are marked that recomputing the whole table is cheaper. */
  private async most(tableId: number, marked: number): Promise<boolean> {
    return marked > 1000 && marked > FULL_SHARE * (await this.repo.rowCount(tableId));
  }

  /**
   * Any change of the searched fields rebuilds the index (at the next search, not in a write's
   * commit); marked rows get their documents written anew.
   */
  private async refreshDocuments(tableId: number, mode: Mode, specs: FieldSpec[], state: SearchIndexState): Promise<boolean> {
    if (mode === 'build' || !this.upToDate(state, specs)) {
      if (mode === 'commit') {
        // The next search rebuilds the index, these rows with the others.
        await this.repo.takePending(tableId);
        return false;
      }
      await this.rebuildDocuments(tableId, specs, state);
      return true;
    }
    const { rows, created, via } = await this.markedRows(tableId, specs);
    const ids = new Set([...rows, ...created]);
    for (const linked of via.values()) for (const id of linked) ids.add(id);
    if (!ids.size) return false;
    if (mode !== 'commit' && (await this.most(tableId, ids.size))) await this.rebuildDocuments(tableId, specs, state);
    else await this.recomputeDocuments(tableId, [...ids], specs, state.layout);
    return true;
  }

  /** Recreates the index from every row, a cell per searched field. */
  private async rebuildDocuments(tableId: number, specs: FieldSpec[], state: SearchIndexState): Promise<void> {
    state.layout = { columns: Math.max(1, specs.length), slots: Object.fromEntries(specs.map((spec, i) => [spec.field.id, i])) };
    await this.repo.dropStorage(tableId);
    await this.repo.createStorage(tableId, state.layout.columns);
    await this.repo.takePending(tableId);
    for (let after = 0; ; ) {
      const rows = await this.repo.texts(tableId, this.texts(specs), { after, limit: FIELD_BATCH });
      if (!rows.length) break;
      await this.repo.writeDocuments(tableId, state.layout.columns, this.documents(rows, specs, state.layout));
      after = Number(rows[rows.length - 1].id);
    }
    // Indexed once loaded: cheaper than growing the index row by row.
    await this.repo.indexStorage(tableId);
    state.fields = Object.fromEntries(specs.map((spec) => [spec.field.id, spec.hash]));
  }

  /** Writes the documents of some rows anew (those gone lose theirs). */
  private async recomputeDocuments(tableId: number, rowIds: number[], specs: FieldSpec[], layout: SearchLayout): Promise<void> {
    for (let i = 0; i < rowIds.length; i += ROW_BATCH) {
      const ids = rowIds.slice(i, i + ROW_BATCH);
      const rows = await this.repo.texts(tableId, this.texts(specs), { ids });
      const present = new Set(rows.map((row) => Number(row.id)));
      await this.repo.deleteDocuments(tableId, ids.filter((id) => !present.has(id)));
      await this.repo.writeDocuments(tableId, layout.columns, this.documents(rows, specs, layout));
    }
  }

  /** The documents of the texts read, each field's words in its column. */
  private documents(rows: Record<string, unknown>[], specs: FieldSpec[], layout: SearchLayout): SearchDocument[] {
    return rows.map((row) => {
      const cells: (CellWords | null)[] = new Array(layout.columns).fill(null);
      for (const spec of specs) {
        const text = row[`f${spec.field.id}`];
        const slot = layout.slots[spec.field.id];
        if (slot !== undefined && text !== null && text !== undefined && text !== '') cells[slot] = cellWords(String(text));
      }
      return { rowId: Number(row.id), cells };
    });
  }


  /** Takes the table's marks: its rows marked, and by link field the rows linked to the linked rows marked. */
  private async markedRows(tableId: number, specs: FieldSpec[]): Promise<{ rows: Set<number>; created: Set<number>; via: Map<number, Set<number>> }> {
    const rows = new Set<number>();
    const created = new Set<number>();
    const keys = new Map<number, Set<number>>();
    for (const mark of await this.repo.takePending(tableId)) {
      if (mark.via === 0) rows.add(mark.rowId);
      else if (mark.via === NEW_ROW) created.add(mark.rowId);
      else {
        let set = keys.get(mark.via);
        if (!set) keys.set(mark.via, (set = new Set()));
        set.add(mark.rowId);
      }
    }
    const via = new Map<number, Set<number>>();
    for (const [fieldId, linkedKeys] of keys) {
      const junction = specs.find((spec) => spec.field.id === fieldId)?.sources.find((source) => source.via)?.via;
      if (junction) via.set(fieldId, new Set(await this.repo.mapKeys(junction, [...linkedKeys])));
    }
    // A row inserted and then written again is treated as any written row.
    for (const id of rows) created.delete(id);
    return { rows, created, via };
  }

  /**
   * The searchable fields of a table with their text SQL, and the stamp of the fields versions
   * of the table and the tables it links to (when it changes, the triggers are checked).
   */
  private async specs(context: TableContext, given?: Map<number, TableContext>): Promise<{ specs: FieldSpec[]; stamp: string }> {
    const linked = given ?? (await this.contexts.linkedTables(context));
    const contexts = new Map<number, TableContext>([...linked, [context.table.id, context]]);
    const stamp = [...contexts.values()]
      .map((c) => `${c.table.id}:${c.table.fieldsVersion}`)
      .sort()
      .join(',');
    const known = this.built.get(context.table.id);
    if (known?.stamp === stamp) return known;
    const tables: LinkedTables = contexts;
    const specs: FieldSpec[] = [];
    for (const field of context.fields) {
      const type = this.fieldTypes.of(field);
      const probe = new Sql(this.repo.dialect);
      const ref = { alias: ALIAS, sql: probe, tables };
      const text = type.searchText(field, ref);
      if (!text) continue;
      const sources = type.searchSources?.(field, ref) ?? [];
      const users = sources.some((source) => source.table === 'user');
      const hash = createHash('sha1').update(`${text}\n${JSON.stringify(probe.params)}`).digest('hex').slice(0, 20);
      specs.push({ field, hash: users ? `u:${hash}` : hash, sources, build: (sql) => type.searchText(field, { alias: ALIAS, sql, tables })! });
    }
    // Kept only when read outside a transaction: a rolled-back change must not leave its specs behind under a version that never committed.
    if (!this.db.inTransaction) {
      this.built.delete(context.table.id);
      this.built.set(context.table.id, { stamp, specs });
      if (this.built.size > 1000) this.built.delete(this.built.keys().next().value!);
    }
    return { specs, stamp };
  }

  /**
   * Installs the table's triggers its fields need and drops those they no longer need;
   * answers what the missing ones (new, or gone with a rebuilt table) leave to recompute:
   * every field (a trigger on the table itself) or some.
   */
  private async reconcile(tableId: number, specs: FieldSpec[]): Promise<{ all: boolean; fields: Set<number> }> {
    const wanted = new Map<string, { trigger: SearchTrigger; fields: number[] | 'all' }>();
    const want = (base: Omit<SearchTrigger, 'event'>, fields: number[] | 'all') => {
      for (const event of ['INSERT', 'UPDATE', 'DELETE'] as const) {
        // Rows the table's own inserts mark are new: they have no entries to delete.
        const own = base.via === 0 && base.table === rowsTable(tableId);
        const trigger = { ...base, event, via: own && event === 'INSERT' ? NEW_ROW : base.via, keepTrashed: own && event === 'UPDATE' ? true : undefined };
        const name = this.repo.triggerName(trigger);
        const known = wanted.get(name);
        if (!known) wanted.set(name, { trigger, fields });
        else if (known.fields !== 'all') known.fields = fields === 'all' ? 'all' : [...known.fields, ...fields];
      }
    };
    want({ consumer: tableId, table: rowsTable(tableId), column: 'id', via: 0 }, 'all');
    let users = false;
    for (const spec of specs) {
      for (const source of spec.sources) {
        if (source.table === 'user') users = true;
        else want({ consumer: tableId, table: source.table, column: source.column, via: source.via ? spec.field.id : 0 }, [spec.field.id]);
      }
    }
    const existing = await this.repo.triggers(tableId);
    for (const trigger of existing) if (!wanted.has(trigger.name)) await this.repo.dropTrigger(trigger.name, trigger.table);
    await this.repo.dropLeftovers(tableId);
    const installed = new Set(existing.map((trigger) => trigger.name));
    const missing = { all: false, fields: new Set<number>() };
    for (const [name, { trigger, fields }] of wanted) {
      if (installed.has(name)) continue;
      await this.repo.createTrigger(trigger);
      if (fields === 'all') missing.all = true;
      else for (const id of fields) missing.fields.add(id);
    }
    if (users && !(await this.repo.triggers(0)).some((t) => t.name === this.repo.triggerName(USERS_TRIGGER))) await this.repo.createTrigger(USERS_TRIGGER);
    return missing;
  }



  private texts(specs: FieldSpec[]): { fieldId: number; build: (sql: Sql) => string }[] {
    return specs.map((spec) => ({ fieldId: spec.field.id, build: spec.build }));
  }

}
