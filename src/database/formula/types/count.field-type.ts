import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../fields/field.entity';
import { FieldTypeRegistry } from '../../fields/field-type';
import { FormulaErrors } from '../formula.errors';
import { DatabaseFields, FormulaService } from '../formula.service';
import { ComputedFieldType, RESULT_PROPERTIES } from './computed.field-type';
import { resolveThrough } from './through-field';

/** `count`: how many rows a link field links to. */
@Injectable()
export class CountFieldType extends ComputedFieldType {
  readonly type = 'count';
  readonly properties = {
    through_field_id: { kind: 'int', nullable: true, required: false },
    ...RESULT_PROPERTIES,
  } as const;

  constructor(formulas: FormulaService, registry: FieldTypeRegistry) {
    super(formulas, registry);
  }

  protected check(field: FieldEntity, fields: DatabaseFields, input: Record<string, unknown>): void {
    resolveThrough(field, fields, input, FormulaErrors.countThrough);
  }
}
