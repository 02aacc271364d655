import { Column, ColumnOptions } from 'typeorm';

/**
 * Timestamps are stored as ISO-8601 UTC strings: identical on SQLite and PostgreSQL,
 * ordered correctly as text, and free of driver time-zone conversions.
 */
export function DateTimeColumn(options: Omit<ColumnOptions, 'type' | 'transformer'> = {}): PropertyDecorator {
  return Column({
    ...options,
    type: 'varchar',
    length: 32,
    transformer: {
      to: (value: Date | null | undefined) => (value instanceof Date ? value.toISOString() : value ?? null),
      from: (value: string | null) => (value == null ? null : new Date(value)),
    },
  });
}

/** Lists and objects kept as JSON text. */
export function JsonColumn(options: Omit<ColumnOptions, 'type'> = {}): PropertyDecorator {
  return Column({ ...options, type: 'simple-json' });
}

/** Baserow's datetime format: ISO-8601 UTC with `Z`, microseconds only when non-zero. */
export function toApiDateTime(value: Date | null | undefined): string | null {
  if (!value) return null;
  const iso = value.toISOString();
  return iso.endsWith('.000Z') ? iso.replace('.000Z', 'Z') : iso.replace(/\.(\d{3})Z$/, '.$1000Z');
}
