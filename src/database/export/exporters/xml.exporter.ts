import { Injectable } from '@nestjs/common';
import type { Writable } from 'node:stream';
import * as iconv from 'iconv-lite';
import { ExportOptions, ExportWriter, TableExporter, write } from '../table-exporter';

/**
 * A column name as an XML element name: characters a name cannot hold become `-`, and a
 * name that cannot start as it does (a digit, `-`, `.`, or `xml`) is prefixed with `field-`.
 */
export function xmlTagName(name: string): string {
  let tag = name.trim().replace(/[^\p{L}\p{N}_.-]/gu, '-');
  if (!tag || !/^[\p{L}_]/u.test(tag) || /^xml/i.test(tag)) tag = `field-${tag}`;
  return tag;
}

const escapeXml = (text: string): string =>
  text
    // Characters XML 1.0 cannot carry at all are dropped.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** A rich cell as XML content: lists as `<item>`s, objects as one element per key. */
function content(value: unknown, indent: string): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((item) => `\n${indent}<item>${content(item, `${indent}  `)}</item>`).join('') + `\n${indent.slice(2)}`;
  if (typeof value === 'object') {
    return (
      Object.entries(value as Record<string, unknown>)
        .map(([key, item]) => `\n${indent}<${xmlTagName(key)}>${content(item, `${indent}  `)}</${xmlTagName(key)}>`)
        .join('') + `\n${indent.slice(2)}`
    );
  }
  return escapeXml(String(value));
}

/** `xml`: `<rows>` of `<row>`s with one element per column, cells rich. */
@Injectable()
export class XmlTableExporter implements TableExporter {
  readonly type = 'xml';
  readonly extension = 'xml';
  readonly contentType = 'application/xml';
  readonly rich = true;

  async open(out: Writable, columns: string[], options: ExportOptions): Promise<ExportWriter> {
    const encode = (text: string): Buffer => iconv.encode(text, options.charset);
    const tags = columns.map(xmlTagName);
    await write(out, encode(`<?xml version="1.0" encoding="${options.charset}" ?>\n<rows>\n`));
    return {
      writeRows: async (rows) => {
        if (!rows.length) return;
        const text = rows.map((row) => `  <row>\n${tags.map((tag, i) => `    <${tag}>${content(row[i], '      ')}</${tag}>\n`).join('')}  </row>\n`).join('');
        await write(out, encode(text));
      },
      finish: async () => write(out, encode('</rows>\n')),
    };
  }
}
