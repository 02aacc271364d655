import { Injectable } from '@nestjs/common';
import { cellColumn, FieldListFilter, type FieldEntity, type FilterContext } from 'rowspace/extension';

/** The value 0..15 of the hex digit at `position` (1-based) of a lower-case `#rrggbb` cell; NULL otherwise. */
function hexDigit(column: string, position: number): string {
  const cases = [...'0123456789abcdef'].map((digit, value) => `WHEN '${digit}' THEN ${value}`).join(' ');
  return `(CASE substr(${column}, ${position}, 1) ${cases} END)`;
}

/**
 * The cell's perceived brightness times 1000 (ITU-R BT.601: 299·R + 587·G + 114·B, 0..255000),
 * NULL for empty cells. Plain SQL both SQLite and PostgreSQL run, so the database filters.
 */
function luma(column: string): string {
  const channel = (position: number): string => `(${hexDigit(column, position)} * 16 + ${hexDigit(column, position + 1)})`;
  return `(299 * ${channel(2)} + 587 * ${channel(4)} + 114 * ${channel(6)})`;
}

/** Below half brightness. */
const DARK_BELOW = 127500;

/** `color_is_dark`: the color's brightness is below half; the value is ignored, empty cells never match. */
@Injectable()
export class ColorIsDarkFilter extends FieldListFilter {
  readonly type: string = 'color_is_dark';
  protected readonly fieldTypes = ['color'];

  compile(field: FieldEntity, _value: string, ctx: FilterContext): string {
    return `${luma(cellColumn(field, ctx))} < ${DARK_BELOW}`;
  }
}

/** `color_is_light`: the other colors; empty cells never match either. */
@Injectable()
export class ColorIsLightFilter extends FieldListFilter {
  readonly type: string = 'color_is_light';
  protected readonly fieldTypes = ['color'];

  compile(field: FieldEntity, _value: string, ctx: FilterContext): string {
    return `${luma(cellColumn(field, ctx))} >= ${DARK_BELOW}`;
  }
}
