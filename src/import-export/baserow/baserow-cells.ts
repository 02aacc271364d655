import type { FieldDocument } from '../../database/serialization/database-document';

/** Members of a workspace by id and e-mail: collaborator cells and user filters name users by e-mail in Baserow's export. */
export interface WorkspacePeople {
  emailOf(userId: number): string | null;
  idOf(email: string): number | null;
}

/** A file cell item as Baserow's export writes it (`DatabaseExportSerializedStructure.file_field_value`). */
export interface BaserowFileValue {
  name: string;
  visible_name: string;
  original_name: string;
  size?: number;
}

/** Field types whose cells Baserow exports as null (read only, not kept on duplication): they are computed again. */
const NOT_KEPT = new Set(['formula', 'count', 'rollup', 'lookup', 'created_on', 'last_modified']);

/**
 * A cell of Rowspace's database document (`exportCell`, else the API value) as Baserow's
 * `get_export_serialized_value` writes it. `file` is told the user files the cell names (the
 * zip carries them); `hasFile` says which of them are stored (the others are left out).
 */
export function toBaserowCell(field: FieldDocument, value: unknown, people: WorkspacePeople, file: (name: string) => void, hasFile: (name: string) => boolean = () => true): unknown {
  if (NOT_KEPT.has(field.type)) return null;
  switch (field.type) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return value === null || value === undefined ? null : String(value);
    case 'date':
      return typeof value === 'string' ? pythonIsoformat(value) : null;
    case 'created_by':
    case 'last_modified_by': {
      // The row's user (a document keeps it with the row, not as a cell).
      const id = typeof value === 'number' ? value : (value as { id?: unknown } | null)?.id;
      return typeof id === 'number' ? people.emailOf(id) : null;
    }
    case 'multiple_collaborators':
      return ((value as { id?: unknown }[] | null) ?? []).map((v) => (typeof v?.id === 'number' ? people.emailOf(v.id) : null)).filter((email): email is string => !!email);
    case 'file':
      return ((value as Record<string, unknown>[] | null) ?? [])
        .filter((item) => hasFile(String(item.name)))
        .map((item) => {
        const name = String(item.name);
        file(name);
        const out: BaserowFileValue = { name, visible_name: String(item.visible_name ?? name), original_name: name };
        if (typeof item.size === 'number') out.size = item.size;
        return out;
      });
    case 'link_row':
    case 'multiple_select':
      return Array.isArray(value) ? value : [];
    case 'uuid':
      return value === null || value === undefined ? null : String(value);
    default:
      return value === undefined ? null : value;
  }
}

/**
 * A cell of Baserow's export as Rowspace's database document holds it (what the field type's
 * `importCell` or `prepareValue` takes); undefined leaves the cell to its default. File items
 * keep their names in the zip (the import renames them once the files are stored).
 */
export function fromBaserowCell(field: FieldDocument, value: unknown, people: WorkspacePeople): unknown {
  if (NOT_KEPT.has(field.type) || field.type === 'created_by' || field.type === 'last_modified_by') return undefined;
  if (value === undefined) return undefined;
  switch (field.type) {
    case 'boolean':
      return value === 'true' || value === true;
    case 'number':
      return value === null ? null : String(value);
    case 'date':
      return typeof value === 'string' && value ? value : null;
    case 'duration':
      return typeof value === 'number' ? value : value === null ? null : Number(value);
    case 'multiple_collaborators':
      return (Array.isArray(value) ? value : []).map((email) => (typeof email === 'string' ? people.idOf(email) : null)).filter((id): id is number => id !== null).map((id) => ({ id }));
    case 'file':
      return (Array.isArray(value) ? value : [])
        .filter((item): item is Record<string, unknown> => !!item && typeof item === 'object' && typeof (item as Record<string, unknown>).name === 'string')
        .map((item) => ({ name: String(item.name), visible_name: typeof item.visible_name === 'string' ? item.visible_name : String(item.original_name ?? item.name) }));
    case 'link_row':
    case 'multiple_select':
      return (Array.isArray(value) ? value : []).filter((id) => Number.isInteger(id));
    case 'single_select':
      return Number.isInteger(value) ? value : null;
    case 'uuid':
      return typeof value === 'string' && value !== 'None' ? value : null;
    default:
      return value;
  }
}

/** Python's `isoformat()` of a date or an aware UTC datetime: `+00:00` for `Z`, no fraction when it is zero. */
export function pythonIsoformat(value: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6})\d*)?(?:Z|\+00:00)$/.exec(value);
  if (!m) return value;
  const fraction = (m[2] ?? '').padEnd(6, '0');
  return `${m[1]}${/^0*$/.test(fraction) ? '' : `.${fraction}`}+00:00`;
}

/**
 * A timestamp as Rowspace keeps row timestamps (`2024-01-02T10:00:00.123456Z`), from Baserow's
 * export (`…123456+00:00`) or a database's text (`2024-01-02 10:00:00.123+00`); null when unreadable.
 */
export function rowTimestamp(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().replace('Z', '000Z');
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d{1,6})\d*)?(Z|[+-]\d\d(?::?\d\d)?)?$/.exec(value.trim());
  if (!m) return null;
  const fraction = (m[3] ?? '').padEnd(6, '0');
  const zone = m[4] ?? 'Z';
  if (/^(Z|[+-]00(:?00)?)$/.test(zone)) return `${m[1]}T${m[2]}.${fraction}Z`;
  const offset = zone.length === 3 ? `${zone}:00` : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const date = new Date(`${m[1]}T${m[2]}.${fraction.slice(0, 3)}${offset}`);
  if (Number.isNaN(date.getTime())) return null;
  return `${date.toISOString().slice(0, 19)}.${fraction}Z`;
}
