import { Injectable } from '@nestjs/common';
import { ColumnDefinition, escapeLike } from '../../../core/database/dialect';
import { quote } from '../../../core/database/sql';
import { toApiDateTime } from '../../../core/database/columns';
import { UserFileRepository } from '../../../files/user-file.repository';
import { parseUserFileName, UserFileEntity, userFileName } from '../../../files/user-file.entity';
import { UserFileFacts, userFileKey, UserFileJson, UserFilesService } from '../../../files/user-files.service';
import { FileStorage } from '../../../files/storage/file-storage';
import { formulaDialect } from '../../formula/formula-dialect';
import type { FieldEntity } from '../field.entity';
import { CellError, cellError, ColumnRef, FieldContext, FieldType, RawRow, fieldColumn } from '../field-type';
import { pyList } from '../../database.errors';
import { pythonTypeName } from '../../../core/validation/field';
import { joinCommaSeparated, splitCommaSeparated } from '../values/comma-separated';
import { columnOf } from './base';
import { joinedText } from './search-text';

/** A file of a cell as stored (Baserow's `UserFile.serialize()` plus `visible_name`). */
export interface StoredFile extends UserFileFacts {
  name: string;
  visible_name: string;
}

/** A file of a cell as answered: the stored file with its absolute URL and thumbnails. */
export type FileCell = { url: string; thumbnails: UserFileJson['thumbnails'] } & StoredFile;

/** Python's `datetime.isoformat()` of a UTC time: `+00:00`, microseconds only when there are some. */
export function pythonIsoFormat(date: Date): string {
  return toApiDateTime(date)!.replace(/Z$/, '+00:00');
}

function storedFile(file: UserFileEntity, visibleName: string | null): StoredFile {
  return {
    name: userFileName(file),
    visible_name: visibleName || file.originalName,
    size: file.size,
    mime_type: file.mimeType,
    is_image: file.isImage,
    image_width: file.imageWidth,
    image_height: file.imageHeight,
    uploaded_at: pythonIsoFormat(file.uploadedAt),
  };
}

/** Files taken from another type's text by a conversion: names that name no file are dropped, not refused. */
class ConvertedFiles {
  constructor(readonly items: { name: string; visible_name: string | null }[]) {}
}

/** The items of a stored cell (JSON text on SQLite, parsed on PostgreSQL). */
function storedItems(raw: unknown): StoredFile[] {
  const value = typeof raw === 'string' ? safeParse(raw) : raw;
  return Array.isArray(value) ? (value as StoredFile[]) : [];
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return [];
  }
}

/** A name of a request that must name a user file (Baserow's `user_file_name_validator`). */
function requestedFileName(name: unknown): string {
  if (typeof name !== 'string' || !parseUserFileName(name)) throw cellError('The user file name is invalid.', 'invalid');
  return name;
}

/**
 * `file`: a list of user files in one JSON column. Written as names or `{name, visible_name}`
 * (names of files that do not exist: a body validation error), answered with absolute
 * URLs and thumbnails; searched and filtered by visible name.
 */
@Injectable()
export class FileFieldType implements FieldType {
  readonly type = 'file';
  readonly readOnly = false;
  readonly canIndex = false;
  readonly properties = {};

  constructor(
    private readonly files: UserFileRepository,
    private readonly userFiles: UserFilesService,
    private readonly storage: FileStorage,
  ) {}

  canBePrimary(): boolean {
    return true;
  }

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'json' };
  }

  defaultValue(): unknown {
    return '[]';
  }

  async prepareValue(field: FieldEntity, value: unknown, _ctx: FieldContext): Promise<unknown> {
    const lenient = value instanceof ConvertedFiles;
    const items = lenient ? value.items : this.requestItems(value);
    if (items.length === 0) return '[]';
    const found = await this.files.findByNames(items.map((item) => item.name));
    const missing = [...new Set(items.map((item) => item.name).filter((name) => !found.has(name)))].sort();
    // Baserow's UserFileDoesNotExist: a Django ValidationError, answered as the whole detail.
    if (missing.length && !lenient) throw new CellError(`The user files ${pyList(missing)} do not exist.`);
    return JSON.stringify(items.filter((item) => found.has(item.name)).map((item) => storedFile(found.get(item.name)!, item.visible_name)));
  }

  /**
   * A request value as `{name, visible_name}` items: Baserow's FileFieldRequestSerializer takes
   * a list of names, a list of `{name, visible_name?}` objects (never both in one cell) or a
   * comma-separated string of names; every name must be a user file name.
   */
  private requestItems(value: unknown): { name: string; visible_name: string | null }[] {
    if (value === null || value === undefined) return [];
    if (typeof value !== 'string' && !Array.isArray(value)) throw cellError('This value must be a list or a string.', 'not_a_list');
    if (value.length === 0) return [];
    const items: unknown[] = typeof value === 'string' ? splitCommaSeparated(value) : value;
    const first = pythonTypeName(items[0]);
    // Python's `isinstance(item, type(first))`: a bool is an int too.
    if (items.some((item) => pythonTypeName(item) !== first && !(first === 'int' && typeof item === 'boolean'))) {
      throw cellError('All list values must be same type.', 'not_same_type');
    }
    if (first === 'str') return items.map((name) => ({ name: requestedFileName(name), visible_name: null }));
    if (first !== 'dict') throw cellError('The provided value should be a list of valid string or objects containing a value property.', 'invalid');
    const named = items as Record<string, unknown>[];
    for (const item of named) {
      if (item.name === undefined || item.name === null) throw cellError('A name property is required for all values of the list.', 'required');
      requestedFileName(item.name);
    }
    return named.map(({ name, visible_name: visibleName }) => {
      if (visibleName !== undefined && visibleName !== null && typeof visibleName !== 'string') throw cellError('The provided `visible_name` must be a string.', 'invalid');
      // eslint-disable-next-line no-control-regex
      if (typeof visibleName === 'string' && /\u0000/.test(visibleName)) throw cellError('Null characters are not allowed.', 'null_characters_not_allowed');
      return { name: name as string, visible_name: typeof visibleName === 'string' && visibleName.trim() ? visibleName.trim().slice(0, 255) : null };
    });
  }

  async readValues(field: FieldEntity, rows: RawRow[]): Promise<unknown[]> {
    const column = fieldColumn(field);
    return Promise.all(rows.map((row) => Promise.all(storedItems(row[column]).map((item) => this.cell(item)))));
  }

  private async cell(item: StoredFile): Promise<FileCell> {
    const parts = parseUserFileName(item.name);
    const thumbnails = parts ? await this.userFiles.thumbnails({ isImage: item.is_image, ...parts }) : null;
    return {
      url: await this.storage.url(userFileKey(item.name)),
      thumbnails,
      visible_name: item.visible_name,
      name: item.name,
      size: item.size,
      mime_type: item.mime_type,
      is_image: item.is_image,
      image_width: item.image_width ?? null,
      image_height: item.image_height ?? null,
      uploaded_at: item.uploaded_at,
    };
  }

  /** Row history keeps the stored files (without URLs, which may be signed and expire). */
  historyValue(_field: FieldEntity, apiValue: unknown): unknown {
    return (Array.isArray(apiValue) ? (apiValue as FileCell[]) : []).map(({ url: _url, thumbnails: _thumbnails, ...stored }) => stored);
  }

  /** Baserow's `get_export_value`: rich → `{visible_name, name, url}` items; text → `visible_name (url),…`. */
  exportValue(_field: FieldEntity, apiValue: unknown, rich: boolean): unknown {
    const files = Array.isArray(apiValue) ? (apiValue as FileCell[]) : [];
    if (rich) return files.map((file) => ({ visible_name: file.visible_name, name: file.name, url: file.url }));
    return joinCommaSeparated(files.map((file) => `${file.visible_name} (${file.url})`));
  }

  /** As Baserow converts a file field to text: `visible_name (url)` items joined by `, `. */
  toText(_field: FieldEntity, apiValue: unknown): string | null {
    const files = Array.isArray(apiValue) ? (apiValue as FileCell[]) : [];
    return files.length ? files.map((file) => `${file.visible_name} (${file.url})`).join(', ') : null;
  }

  /**
   * Text to files: `visible name (…/user_files/<name>)` items (the text a file field converts
   * to) and bare names; names that name no file are dropped.
   */
  convertFrom(_field: FieldEntity, apiValue: unknown, _from: FieldEntity, fromType: FieldType): unknown {
    const text = fromType.toText(_from, apiValue);
    if (!text) return new ConvertedFiles([]);
    const items: { name: string; visible_name: string | null }[] = [];
    const pattern = /\s*([^,]*?)\s*\(([^()\s]*?)\)|([A-Za-z0-9]+_[A-Za-z0-9]+\.[A-Za-z0-9]*)/g;
    for (const match of text.matchAll(pattern)) {
      const name = (match[2] ?? match[3] ?? '').split('/').pop() ?? '';
      if (parseUserFileName(name)) items.push({ name, visible_name: match[1] || null });
    }
    return new ConvertedFiles(items);
  }

  sortExpression(): string | null {
    return null;
  }

  groupable(): boolean {
    return false;
  }

  /** Compat search: a file whose visible name contains the term. */
  searchCondition(field: FieldEntity, ref: ColumnRef, term: string): string | null {
    return fileExists(field, ref.alias, ref.sql.dialect, (item, db) => ref.sql.dialect.ilike(db.jsonGetText(item, 'visible_name'), ref.sql.param(`%${escapeLike(term)}%`)));
  }

  /** The files' visible names, in the cell's order, joined by spaces. */
  searchText(field: FieldEntity, ref: ColumnRef): string {
    const db = formulaDialect(ref.sql.dialect);
    const { relation, item } = db.storedArray(columnOf(field, ref), quote(`sf_${field.id}`));
    return joinedText(relation, db.jsonGetText(item, 'visible_name'), `sfa_${field.id}`, ref);
  }
}

/**
 * `EXISTS` a file of the cell matching `condition` (given the item's JSON expression); without
 * a condition, whether the cell has any file.
 */
export function fileExists(
  field: FieldEntity,
  alias: string,
  dialect: Parameters<typeof formulaDialect>[0],
  condition?: (item: string, db: ReturnType<typeof formulaDialect>) => string,
): string {
  const db = formulaDialect(dialect);
  const items = db.jsonArrayItems(columnOf(field, { alias } as ColumnRef), quote(`files_${field.id}`));
  return `EXISTS (SELECT 1 FROM ${items.from}${condition ? ` WHERE ${condition(items.item, db)}` : ''})`;
}

/** The number of files of the cell, as SQL. */
export function fileCount(field: FieldEntity, alias: string, dialect: Parameters<typeof formulaDialect>[0]): string {
  const db = formulaDialect(dialect);
  const items = db.jsonArrayItems(columnOf(field, { alias } as ColumnRef), quote(`files_${field.id}`));
  return `(SELECT COUNT(*) FROM ${items.from})`;
}
