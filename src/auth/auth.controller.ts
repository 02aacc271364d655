import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from '../openapi/decorators';
import { Schemas } from '../openapi/schemas';
import type { Request } from 'express';
import { UserJson } from '../users/user.serializer';
import { BlacklistTokenDto, SignUpDto } from './auth.dto';
import { AuthService, TokenAnswer, UserData } from './auth.service';
import { Public } from './decorators';

@ApiTags('User')
@Controller('api/user')
@Public()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post()
  @HttpCode(200)
  @Answer(Schemas.ref('TokenAuth'))
  @ApiOperation({ operationId: 'create_user', summary: 'Signs up; the first account becomes staff and new accounts get an example workspace.' })
  signUp(@Body() body: SignUpDto): Promise<{ user: UserJson } | TokenAnswer> {
    return this.auth.signUp(body);
  }

  @Post('token-auth')
  @HttpCode(200)
  @Answer(Schemas.ref('TokenAuth'))
  @ApiOperation({ operationId: 'token_auth', summary: 'Exchanges e-mail (or legacy `username`) and password for an access and a refresh JWT.' })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['password'],
      properties: { email: { type: 'string', format: 'email' }, username: { type: 'string', deprecated: true }, password: { type: 'string' } },
    },
  })
  login(@Body() body: unknown, @Req() req: Request): Promise<TokenAnswer> {
    return this.auth.login(asFields(body), req.ip ?? req.socket.remoteAddress ?? 'unknown');
  }

  @Post('token-refresh')
  @HttpCode(200)
  @Answer({ type: 'object', properties: { access_token: { type: 'string' }, token: { type: 'string', deprecated: true }, active_licenses: Schemas.ref('ActiveLicenses') } })
  @ApiOperation({ operationId: 'token_refresh', summary: 'A new access token for a refresh token (the refresh token is not rotated).' })
  @ApiBody({
    schema: {
      type: 'object',
      properties: { refresh_token: { type: 'string' }, token: { type: 'string', deprecated: true } },
    },
  })
  refresh(@Body() body: unknown): Promise<Omit<TokenAnswer, 'refresh_token' | 'user_session'>> {
    return this.auth.refresh(asFields(body));
  }

  @Post('token-verify')
  @HttpCode(200)
  @Answer({ type: 'object', properties: { user: Schemas.ref('User'), permissions: {}, user_notifications: Schemas.object, active_licenses: Schemas.ref('ActiveLicenses') } })
  @ApiOperation({ operationId: 'token_verify', summary: 'Checks a refresh token and answers the user data.' })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['refresh_token'],
      properties: { refresh_token: { type: 'string' }, token: { type: 'string', deprecated: true } },
    },
  })
  @ApiOkResponse({ description: '`user`, `permissions`, `user_notifications`, `active_licenses`.' })
  verify(@Body() body: unknown): Promise<UserData> {
    return this.auth.verify(asFields(body));
  }

  @Post('token-blacklist')
  @HttpCode(204)
  @ApiOperation({ operationId: 'token_blacklist', summary: 'Logs out: the refresh token stops working.' })
  async blacklist(@Body() body: BlacklistTokenDto): Promise<void> {
    await this.auth.blacklist(body.refresh_token);
  }
}

/** The simplejwt-based endpoints validate their fields themselves (DRF-style errors). */
function asFields(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
