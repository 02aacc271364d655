import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../fields/field.entity';
import { fileCount, fileExists } from '../../fields/types/file.field-type';
import type { FilterContext } from '../filter-type';
import { FieldListFilter, ilikeContains } from './support';

/** `filename_contains`: a file whose visible name contains the value (case-insensitive); an empty value matches all. */
@Injectable()
export class FilenameContainsFilter extends FieldListFilter {
  readonly type = 'filename_contains';
  protected readonly fieldTypes = ['file'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const term = value.trim();
    if (!term) return null;
    return fileExists(field, ctx.alias, ctx.sql.dialect, (item, db) => ilikeContains(db.jsonGetText(item, 'visible_name'), term, ctx));
  }
}

/** `has_file_type`: `image` — a file that is an image; `document` — a file that is not; any other value matches all. */
@Injectable()
export class HasFileTypeFilter extends FieldListFilter {
  readonly type = 'has_file_type';
  protected readonly fieldTypes = ['file'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const kind = value.trim();
    if (kind !== 'image' && kind !== 'document') return null;
    // `is_image` reads 1/0 on SQLite and true/false on PostgreSQL.
    const truthy = kind === 'image' ? "('1', 'true')" : "('0', 'false')";
    return fileExists(field, ctx.alias, ctx.sql.dialect, (item, db) => `${ctx.sql.dialect.castText(db.jsonGetText(item, 'is_image'))} IN ${truthy}`);
  }
}

/** `files_lower_than`: fewer files than the value; a value that is not a whole number matches all. */
@Injectable()
export class FilesLowerThanFilter extends FieldListFilter {
  readonly type = 'files_lower_than';
  protected readonly fieldTypes = ['file'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const text = value.trim();
    if (!/^-?\d+$/.test(text)) return null;
    const count = Number(text);
    if (!Number.isSafeInteger(count)) return null;
    return `${fileCount(field, ctx.alias, ctx.sql.dialect)} < ${ctx.sql.param(count)}`;
  }
}
