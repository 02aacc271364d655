import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../../openapi/decorators';
import { Authentication, CurrentUser, TokenOperations } from '../../auth/decorators';
import { Field } from '../../core/validation/field';
import type { UserEntity } from '../../users/user.entity';
import { PasswordFieldType } from './types/password.field-type';

export class PasswordAuthenticationDto {
  @Field({ kind: 'int', description: 'A password field with `allow_endpoint_authentication`.' })
  field_id: number;

  @Field({ kind: 'int', description: 'The row whose cell is checked.' })
  row_id: number;

  @Field({ kind: 'string', description: 'The password to check.' })
  password: string;
}

@ApiTags('Database table fields')
@Authentication('JWT', 'Token')
@TokenOperations('read')
@Controller('api/database/fields/password-authentication')
export class PasswordAuthenticationController {
  constructor(private readonly passwords: PasswordFieldType) {}

  @Post()
  @HttpCode(200)
  @Answer({ type: 'object', properties: { access_token: { type: 'string' } } })
  @ApiOperation({
    operationId: 'password_field_authentication',
    summary: 'Checks a password against the cell of a password field that allows endpoint authentication.',
  })
  authenticate(@CurrentUser() user: UserEntity, @Body() body: PasswordAuthenticationDto): Promise<{ is_correct: true }> {
    return this.passwords.authenticate(user.id, body.field_id, body.row_id, body.password);
  }
}
