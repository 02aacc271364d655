import { Field } from '../../core/validation/field';

/**
 * Baserow's export charsets (the web client's list) and the iconv-lite names they are
 * written with. `iso-2022-jp` is left out: iconv-lite cannot write it.
 */
export const EXPORT_CHARSETS: Readonly<Record<string, string>> = {
  'utf-8': 'utf-8',
  'iso-8859-6': 'iso-8859-6',
  'windows-1256': 'windows-1256',
  'iso-8859-4': 'iso-8859-4',
  'windows-1257': 'windows-1257',
  'iso-8859-14': 'iso-8859-14',
  'iso-8859-2': 'iso-8859-2',
  'windows-1250': 'windows-1250',
  gbk: 'gbk',
  gb18030: 'gb18030',
  big5: 'big5',
  'koi8-r': 'koi8-r',
  'koi8-u': 'koi8-u',
  'iso-8859-5': 'iso-8859-5',
  'windows-1251': 'windows-1251',
  'x-mac-cyrillic': 'mac-cyrillic',
  'iso-8859-7': 'iso-8859-7',
  'windows-1253': 'windows-1253',
  'iso-8859-8': 'iso-8859-8',
  'windows-1255': 'windows-1255',
  'euc-jp': 'euc-jp',
  'shift-jis': 'shift-jis',
  'euc-kr': 'euc-kr',
  macintosh: 'macintosh',
  'iso-8859-10': 'iso-8859-10',
  'iso-8859-16': 'iso-8859-16',
  'windows-874': 'cp874',
  'windows-1254': 'windows-1254',
  'windows-1258': 'windows-1258',
  'iso-8859-1': 'iso-8859-1',
  'windows-1252': 'windows-1252',
  'iso-8859-3': 'iso-8859-3',
};

/** The CSV separators by the names the API takes. */
export const CSV_SEPARATORS: Readonly<Record<string, string>> = { ',': ',', ';': ';', '|': '|', tab: '\t', record_separator: '\x1e', unit_separator: '\x1f' };

export const EXPORTER_TYPES = ['csv', 'json', 'xml', 'excel'] as const;

export class ExportTableDto {
  @Field({ kind: 'choice', choices: EXPORTER_TYPES, description: 'The file type to export to.' })
  exporter_type: (typeof EXPORTER_TYPES)[number];

  @Field({ kind: 'int', min: 0, required: false, nullable: true, description: "Export through this view of the table: its filters, sorts and visible fields in its order." })
  view_id?: number | null;

  @Field({ kind: 'choice', choices: Object.keys(EXPORT_CHARSETS), required: false, default: 'utf-8', description: 'The character set of the file (text formats).' })
  export_charset: string;

  @Field({ kind: 'choice', choices: Object.keys(CSV_SEPARATORS), required: false, default: ',', description: 'CSV only: the column separator.' })
  csv_column_separator: string;

  @Field({ kind: 'bool', required: false, default: true, description: 'CSV only: write a header row.' })
  csv_include_header: boolean;

  @Field({ kind: 'object', required: false, nullable: true, description: 'A filter tree (`{"filter_type", "filters", "groups"}`) applied on top of the view\'s filters.' })
  filters?: Record<string, unknown> | null;

  @Field({ kind: 'string', required: false, nullable: true, allowBlank: true, description: 'Comma-separated `field_<id>`, `-` for descending; replaces the view\'s sorts.' })
  order_by?: string | null;

  @Field({ kind: 'list', of: { kind: 'int' }, required: false, nullable: true, description: 'Only these field ids, in this order.' })
  fields?: number[] | null;
}
