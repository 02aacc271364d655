import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../fields/field.entity';
import { DurationFormat, parseDuration } from '../../fields/values/duration';
import type { FilterContext } from '../filter-type';
import { cellColumn, FieldListFilter, NOTHING, pyDecimal, pyInt } from './support';

const INTEGER_TYPES = ['rating', 'autonumber'];

/**
 * `higher_than`, `higher_than_or_equal`, `lower_than`, `lower_than_or_equal`: numeric
 * comparisons. An empty value matches every row; a value the field cannot take matches
 * none. Integer fields (rating, autonumber) first round a decimal value (up for higher,
 * down for lower), as Baserow does.
 */
abstract class NumericComparisonFilter extends FieldListFilter {
  protected readonly fieldTypes = ['number', 'rating', 'autonumber', 'duration'];
  protected abstract readonly operator: '>' | '>=' | '<' | '<=';

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const text = value.trim();
    if (text === '') return null;
    const prepared = this.prepare(field, text);
    if (prepared === null) return NOTHING;
    return `${cellColumn(field, ctx)} ${this.operator} ${ctx.sql.param(typeof prepared === 'string' ? ctx.sql.dialect.decimal(prepared) : prepared)}`;
  }

  private prepare(field: FieldEntity, text: string): string | number | null {
    if (INTEGER_TYPES.includes(field.type)) {
      if (text.includes('.')) {
        const decimal = pyDecimal(text);
        if (decimal === null) return null;
        const n = Number(decimal);
        return this.operator.startsWith('>') ? Math.ceil(n) : Math.floor(n);
      }
      return pyInt(text);
    }
    if (field.type === 'duration') {
      const result = parseDuration(text, (field.properties.duration_format ?? 'h:mm') as DurationFormat);
      return result.ok ? result.value : null;
    }
    return pyDecimal(text);
  }
}

@Injectable()
export class HigherThanFilter extends NumericComparisonFilter {
  readonly type = 'higher_than';
  protected readonly operator = '>';
}

@Injectable()
export class HigherThanOrEqualFilter extends NumericComparisonFilter {
  readonly type = 'higher_than_or_equal';
  protected readonly operator = '>=';
}

@Injectable()
export class LowerThanFilter extends NumericComparisonFilter {
  readonly type = 'lower_than';
  protected readonly operator = '<';
}

@Injectable()
export class LowerThanOrEqualFilter extends NumericComparisonFilter {
  readonly type = 'lower_than_or_equal';
  protected readonly operator = '<=';
}
