import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../fields/field.entity';
import { FieldTypeRegistry } from '../../fields/field-type';
import { FormulaErrors } from '../formula.errors';
import { DatabaseFields, FormulaService } from '../formula.service';
import { FormulaFunctionRegistry } from '../functions/function';
import { ComputedFieldType, RESULT_PROPERTIES } from './computed.field-type';
import { resolveTarget, resolveThrough } from './through-field';

/** `rollup`: an aggregate (`rollup_function`: sum, min, max, avg, count, …) of a field of the linked rows. */
@Injectable()
export class RollupFieldType extends ComputedFieldType {
  readonly type = 'rollup';
  readonly properties = {
    through_field_id: { kind: 'int', nullable: true, required: false },
    target_field_id: { kind: 'int', nullable: true, required: false },
    rollup_function: { kind: 'string', max: 64, required: false },
    ...RESULT_PROPERTIES,
  } as const;

  constructor(
    formulas: FormulaService,
    registry: FieldTypeRegistry,
    private readonly functions: FormulaFunctionRegistry,
  ) {
    super(formulas, registry);
  }

  protected check(field: FieldEntity, fields: DatabaseFields, input: Record<string, unknown>): void {
    const through = resolveThrough(field, fields, input, FormulaErrors.rollupThrough);
    resolveTarget(field, through, fields, input, FormulaErrors.rollupTarget);
    const fn = this.functions.get(field.properties.rollup_function);
    if (!fn?.aggregate) throw FormulaErrors.rollupFunction();
  }
}
