import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../fields/field.entity';
import { FieldTypeRegistry } from '../../fields/field-type';
import { FormulaErrors } from '../formula.errors';
import { DatabaseFields, FormulaService } from '../formula.service';
import { ComputedFieldType, RESULT_PROPERTIES } from './computed.field-type';
import { resolveTarget, resolveThrough } from './through-field';

/** `lookup`: the values of a field of the linked rows (`lookup('through', 'target')`). */
@Injectable()
export class LookupFieldType extends ComputedFieldType {
  readonly type = 'lookup';
  readonly properties = {
    through_field_id: { kind: 'int', nullable: true, required: false },
    through_field_name: { kind: 'string', nullable: true, required: false },
    target_field_id: { kind: 'int', nullable: true, required: false },
    target_field_name: { kind: 'string', nullable: true, required: false },
    ...RESULT_PROPERTIES,
  } as const;

  constructor(formulas: FormulaService, registry: FieldTypeRegistry) {
    super(formulas, registry);
  }

  protected check(field: FieldEntity, fields: DatabaseFields, input: Record<string, unknown>): void {
    const through = resolveThrough(field, fields, input, FormulaErrors.lookupThrough);
    resolveTarget(field, through, fields, input, FormulaErrors.lookupTarget);
  }
}
