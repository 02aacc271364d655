import { Body, Controller, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../openapi/decorators';
import { Authentication, CurrentUser, Public } from '../auth/decorators';
import type { UserEntity } from './user.entity';
import type { AccountJson } from './user.serializer';
import { ChangePasswordDto, ResetPasswordDto, SendResetPasswordDto, UpdateAccountDto } from './users.dto';
import { UsersService } from './users.service';

@ApiTags('User')
@Authentication('JWT')
@Controller('api/user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Patch('account')
  @Answer({
    type: 'object',
    description: 'The whole account (Baserow\'s AccountSerializer).',
    properties: {
      first_name: { type: 'string' },
      language: { type: 'string' },
      email_notification_frequency: { type: 'string', enum: ['instant', 'daily', 'weekly', 'never'] },
      completed_onboarding: { type: 'boolean' },
      completed_guided_tours: { type: 'array', items: { type: 'string' } },
    },
    required: ['first_name', 'language', 'email_notification_frequency', 'completed_onboarding', 'completed_guided_tours'],
  })
  @ApiOperation({ operationId: 'update_account', summary: 'Updates the given profile keys; answers the whole account.' })
  updateAccount(@CurrentUser() user: UserEntity, @Body() body: UpdateAccountDto): Promise<AccountJson> {
    return this.users.updateAccount(user, { ...body });
  }

  @Post('change-password')
  @HttpCode(204)
  @ApiOperation({ operationId: 'change_password', summary: 'Changes the password; tokens issued before stop working.' })
  async changePassword(@CurrentUser() user: UserEntity, @Body() body: ChangePasswordDto): Promise<void> {
    await this.users.changePassword(user, body.old_password, body.new_password);
  }

  @Post('send-reset-password-email')
  @Public()
  @HttpCode(204)
  @ApiOperation({ operationId: 'send_password_reset_email', summary: 'Mails a password reset link valid 48 hours.' })
  async sendReset(@Body() body: SendResetPasswordDto): Promise<void> {
    await this.users.sendResetPasswordEmail(body.email, body.base_url);
  }

  @Post('reset-password')
  @Public()
  @HttpCode(204)
  @ApiOperation({ operationId: 'reset_password', summary: 'Sets a new password with the token of a reset link.' })
  async reset(@Body() body: ResetPasswordDto): Promise<void> {
    await this.users.resetPassword(body.token, body.password);
  }

  @Post('schedule-account-deletion')
  @HttpCode(204)
  @ApiOperation({ operationId: 'schedule_account_deletion', summary: 'Schedules the account for deletion after the grace period.' })
  async scheduleDeletion(@CurrentUser() user: UserEntity): Promise<void> {
    await this.users.scheduleDeletion(user);
  }
}
