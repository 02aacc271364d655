import { CallHandler, ExecutionContext, Injectable, mixin, NestInterceptor, Type } from '@nestjs/common';
import type { Request } from 'express';
import { Readable } from 'node:stream';
import type { Observable } from 'rxjs';
import { ErrorTree, PlainHttpError, validationError } from '../../core/errors/api-error';
import { isMultipart } from '../../core/http/json-body.guard';
import { checkValue, FieldSpec } from '../../core/validation/field';
import { IMPORT_CSV_SEPARATORS, IMPORT_FILE_TYPES, ImportFileType, invalidFile } from './import-file.parser';
import { ImportFileParser } from './import-file-parser.service';
import { multer as loadMulter } from '../../files/multipart';

/** The form fields of an upload beside `file` (and `name` / `configuration`, by route). */
const UPLOAD_FIELDS: Record<string, FieldSpec> = {
  file_type: { kind: 'choice', choices: IMPORT_FILE_TYPES, required: false },
  csv_column_separator: { kind: 'choice', choices: Object.keys(IMPORT_CSV_SEPARATORS), required: false, default: ',' },
  csv_encoding: { kind: 'string', max: 32, required: false, default: 'utf-8' },
  first_row_header: { kind: 'bool', required: false, default: false },
};

/** The multipart form of the import routes, documented beside their JSON body. */
export function importUploadSchema(mode: 'create' | 'append'): Record<string, unknown> {
  return {
    type: 'object',
    required: mode === 'create' ? ['file', 'name'] : ['file'],
    properties: {
      file: { type: 'string', format: 'binary', description: 'The CSV, JSON (a list of objects), XML (the root\'s children are rows, their children columns) or Excel (.xlsx, first sheet) file.' },
      ...(mode === 'create' ? { name: { type: 'string', maxLength: 255 } } : { configuration: { type: 'string', description: 'The JSON `configuration` object of the JSON variant.' } }),
      file_type: { type: 'string', enum: [...IMPORT_FILE_TYPES], description: 'Defaults from the file name (.csv, .tsv, .json, .xml, .xlsx).' },
      csv_column_separator: { type: 'string', enum: Object.keys(IMPORT_CSV_SEPARATORS), default: ',' },
      csv_encoding: { type: 'string', default: 'utf-8', description: 'The charset of a CSV file (e.g. `windows-1252`).' },
      first_row_header: { type: 'boolean', default: false, description: 'CSV and Excel: the first row names the columns (JSON and XML always name them).' },
    },
  };
}

const EXTENSIONS: Record<string, ImportFileType> = { csv: 'csv', tsv: 'csv', txt: 'csv', json: 'json', xml: 'xml', xlsx: 'excel' };

interface Upload {
  fields: Record<string, string>;
  file: { name: string; bytes: Buffer } | null;
}

/** Reads a multipart body the body middleware kept as bytes (its size bounded by the request limit). */
function readMultipart(req: Request, bytes: Buffer): Promise<Upload> {
  const stream = Object.assign(Readable.from([bytes]), {
    headers: { 'content-type': req.headers['content-type'], 'content-length': String(bytes.length) },
  });
  const multer = loadMulter();
  const upload = multer({ storage: multer.memoryStorage(), defParamCharset: 'utf8', limits: { files: 1, fields: 20, parts: 25, fieldSize: 1024 * 1024 } }).single('file');
  return new Promise((resolve, reject) => {
    const target = stream as unknown as Request;
    upload(target, {} as never, (error?: unknown) => {
      if (error) return reject(error instanceof multer.MulterError ? invalidFile(`The upload is not usable: ${error.message}.`) : new PlainHttpError(400, { detail: `Multipart form parse error - ${(error as Error).message}` }));
      const file = target.file;
      const fields = Object.fromEntries(Object.entries((target.body ?? {}) as Record<string, unknown>).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
      resolve({ fields, file: file ? { name: file.originalname, bytes: file.buffer } : null });
    });
  });
}

/**
 * The multipart variant of the table import routes (Baserow's web client parses files in the
 * browser; Rowspace also takes the file): the uploaded CSV, JSON, XML or Excel file is parsed
 * on the server (in a worker thread, see ImportFileParser) into the `data` rows of the JSON
 * body, which the route then validates as usual. `mode`: a new table, or rows appended.
 */
export function ImportUploadInterceptor(mode: 'create' | 'append'): Type<NestInterceptor> {
  @Injectable()
  class Interceptor extends ImportUpload {
    constructor(parser: ImportFileParser) {
      super(mode, parser);
    }
  }
  return mixin(Interceptor);
}

class ImportUpload implements NestInterceptor {
  constructor(
    private readonly mode: 'create' | 'append',
    private readonly parser: ImportFileParser,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request & { body: unknown }>();
    if (isMultipart(req.headers['content-type']) && Buffer.isBuffer(req.body)) req.body = await this.toBody(await readMultipart(req, req.body));
    return next.handle();
  }

  private async toBody({ fields, file }: Upload): Promise<Record<string, unknown>> {
    const errors: ErrorTree = {};
    const values: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(UPLOAD_FIELDS)) {
      if (!(key in fields)) {
        values[key] = spec.default;
        continue;
      }
      const result = checkValue(spec, fields[key]);
      if ('error' in result) errors[key] = result.error;
      else values[key] = result.value;
    }
    if (Object.keys(errors).length) throw validationError(errors);
    if (!file) throw invalidFile('No file has been provided or the file is invalid.');
    const fileType = (values.file_type as ImportFileType | undefined) ?? EXTENSIONS[file.name.split('.').pop()?.toLowerCase() ?? ''];
    if (!fileType) throw validationError({ file_type: [{ error: 'This field is required.', code: 'required' }] });
    const parsed = await this.parser.parse(file.bytes, {
      fileType,
      csvColumnSeparator: IMPORT_CSV_SEPARATORS[values.csv_column_separator as string],
      csvEncoding: values.csv_encoding as string,
    });
    const header = parsed.headerFromFile || (values.first_row_header as boolean);
    if (this.mode === 'create') return { name: fields.name, data: parsed.rows, first_row_header: header };
    let configuration: unknown;
    if (fields.configuration !== undefined && fields.configuration !== '') {
      try {
        configuration = JSON.parse(fields.configuration);
      } catch {
        throw validationError({ configuration: [{ error: 'Value must be valid JSON.', code: 'invalid' }] });
      }
    }
    return { data: header ? parsed.rows.slice(1) : parsed.rows, ...(configuration === undefined ? {} : { configuration }) };
  }
}
