import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authentication, CurrentUser } from '../../auth/decorators';
import { IdParam } from '../../core/http/params';
import { Field } from '../../core/validation/field';
import { Answer } from '../../openapi/decorators';
import { specsSchema } from '../../openapi/schemas';
import { RESULT_PROPERTIES } from './types/computed.field-type';
import type { UserEntity } from '../../users/user.entity';
import { FormulaService } from './formula.service';

export class TypeFormulaDto {
  @Field({ kind: 'string', max: 65536 })
  formula: string;

  @Field({ kind: 'string', max: 255 })
  name: string;
}

@ApiTags('Database table fields')
@Authentication('JWT')
@Controller('api/database/formula')
export class FormulaController {
  constructor(private readonly formulas: FormulaService) {}

  @Post(':tableId/type')
  @HttpCode(200)
  // The properties a formula field answers (its formula, result type and that type's formatting).
  @Answer(specsSchema({ formula: { kind: 'string' }, ...RESULT_PROPERTIES }, { partial: true }))
  @ApiOperation({ operationId: 'type_formula_field', summary: 'The result type of a formula in a table (as a formula field named `name` would have it); changes nothing.' })
  type(@CurrentUser() user: UserEntity, @IdParam('tableId') tableId: number, @Body() body: TypeFormulaDto): Promise<Record<string, unknown>> {
    return this.formulas.typeFormula(user.id, tableId, body.formula, body.name);
  }
}
