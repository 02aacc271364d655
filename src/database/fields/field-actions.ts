import type { FieldEntity } from './field.entity';
import type { FieldType } from './field-type';

/**
 * A cell as an undo of a field conversion writes it back: a select's option value (the options
 * may come back with new ids), else the type's history value (a link's row ids, a file's names)
 * or the response value. Null for an empty cell (not kept).
 */
export function restorableCell(field: FieldEntity, type: FieldType, apiValue: unknown): unknown {
  if (apiValue === null || apiValue === undefined || (Array.isArray(apiValue) && !apiValue.length)) return null;
  if (field.type === 'single_select') return (apiValue as { value?: unknown }).value ?? null;
  if (field.type === 'multiple_select') return (apiValue as { value?: unknown }[]).map((option) => option.value);
  return type.historyValue ? type.historyValue(field, apiValue) : apiValue;
}
