import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import { EmailVerificationService } from '../users/email-verification.service';
import type { UserEntity } from '../users/user.entity';
import { SendVerifyEmailDto, VerifyEmailDto } from './auth.dto';
import { AuthService, TokenAnswer } from './auth.service';
import { CurrentUser, OptionalUser, Public } from './decorators';

@ApiTags('User')
@Controller('api/user')
@Public()
export class EmailVerificationController {
  constructor(
    private readonly verification: EmailVerificationService,
    private readonly auth: AuthService,
  ) {}

  @Post('send-verify-email')
  @HttpCode(204)
  @ApiOperation({ operationId: 'send_verify_email', summary: "Mails a link confirming the address, when it is an active account's and not verified yet (answers the same either way)." })
  async send(@Body() body: SendVerifyEmailDto): Promise<void> {
    await this.verification.sendByEmail(body.email);
  }

  @Post('verify-email')
  @HttpCode(200)
  @OptionalUser()
  @Answer({
    description: 'Anonymous: the token-auth payload (the user is signed in). Signed in: `{"email"}`.',
    oneOf: [Schemas.ref('TokenAuth'), { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] }],
  })
  @ApiOperation({ operationId: 'verify_email', summary: "Confirms the user's e-mail address with the token of a verification link." })
  async verify(@Body() body: VerifyEmailDto, @CurrentUser() current: UserEntity | undefined): Promise<TokenAnswer | { email: string }> {
    const user = await this.verification.verify(body.token);
    return current ? { email: user.email } : this.auth.signIn(user);
  }
}
