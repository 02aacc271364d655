import { validationError } from '../../core/errors/api-error';
import { pythonTypeName } from '../../core/validation/field';
import { INT32_MAX } from '../../core/validation/ids';

/** A setting naming a field (DRF's `PrimaryKeyRelatedField`, nullable, default null). */
export const FIELD_REFERENCE = { kind: 'any', required: false, nullable: true, default: null } as const;

/** The id a field reference names (null stays null), or DRF's `incorrect_type` error for that key. */
export function referencedId(key: string, value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(id) || typeof value === 'boolean') {
    throw validationError({ [key]: [{ error: `Incorrect type. Expected pk value, received ${pythonTypeName(value)}.`, code: 'incorrect_type' }] });
  }
  return id;
}

/** DRF's answer for a primary key that names nothing the field accepts. */
export function unknownPk(key: string, value: unknown): Error {
  return validationError({ [key]: [{ error: `Invalid pk "${String(value)}" - object does not exist.`, code: 'does_not_exist' }] });
}

/** Whether an id can name a row of the database (beyond 32 bits names nothing). */
export const storableId = (id: number): boolean => id >= 1 && id <= INT32_MAX;

/** Table duplication: every field reference among the settings names the copy's field (or null when not copied). */
export function remapFieldReferences(properties: Record<string, unknown>, keys: string[], fieldIds: ReadonlyMap<number, number>): void {
  for (const key of keys) {
    if (typeof properties[key] === 'number') properties[key] = fieldIds.get(properties[key] as number) ?? null;
  }
}

/** The field ids that these settings of a view name (unset ones left out). */
export function referencedFields(properties: Record<string, unknown>, keys: readonly string[]): number[] {
  return keys.map((key) => properties[key]).filter((id): id is number => typeof id === 'number');
}
