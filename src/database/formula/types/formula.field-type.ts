import { Injectable } from '@nestjs/common';
import { FieldTypeRegistry } from '../../fields/field-type';
import { FormulaService } from '../formula.service';
import { ComputedFieldType, RESULT_PROPERTIES } from './computed.field-type';

/** `formula`: a formula of Baserow's language over the row's fields (and linked rows). */
@Injectable()
export class FormulaFieldType extends ComputedFieldType {
  readonly type = 'formula';
  readonly properties = {
    formula: { kind: 'string', max: 65536 },
    ...RESULT_PROPERTIES,
  } as const;

  constructor(formulas: FormulaService, registry: FieldTypeRegistry) {
    super(formulas, registry);
  }

  protected check(): void {}
}
