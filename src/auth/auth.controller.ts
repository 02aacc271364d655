import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { UserJson } from '../users/user.serializer';
import { RefreshTokenDto, SignUpDto } from './auth.dto';
import { AuthService, TokenAnswer, UserData } from './auth.service';
import { Public } from './decorators';

@ApiTags('User')
@Controller('api/user')
@Public()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'create_user', summary: 'Signs up; the first account becomes staff and new accounts get an example workspace.' })
  signUp(@Body() body: SignUpDto): Promise<{ user: UserJson } | TokenAnswer> {
    return this.auth.signUp(body);
  }

  @Post('token-auth')
  @HttpCode(200)
  @ApiOperation({ operationId: 'token_auth', summary: 'Exchanges e-mail (or legacy `username`) and password for an access and a refresh JWT.' })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['password'],
      properties: { email: { type: 'string', format: 'email' }, username: { type: 'string', deprecated: true }, password: { type: 'string' } },
    },
  })
  login(@Body() body: unknown, @Req() req: Request): Promise<TokenAnswer> {
    const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    return this.auth.login(fields, req.ip ?? req.socket.remoteAddress ?? 'unknown');
  }

  @Post('token-refresh')
  @HttpCode(200)
  @ApiOperation({ operationId: 'token_refresh', summary: 'A new access token for a refresh token (the refresh token is not rotated).' })
  refresh(@Body() body: RefreshTokenDto): Promise<Omit<TokenAnswer, 'refresh_token' | 'user_session'>> {
    return this.auth.refresh(body);
  }

  @Post('token-verify')
  @HttpCode(200)
  @ApiOperation({ operationId: 'token_verify', summary: 'Checks a refresh token and answers the user data.' })
  @ApiOkResponse({ description: '`user`, `permissions`, `user_notifications`.' })
  verify(@Body() body: RefreshTokenDto): Promise<UserData> {
    return this.auth.verify(body);
  }

  @Post('token-blacklist')
  @HttpCode(204)
  @ApiOperation({ operationId: 'token_blacklist', summary: 'Logs out: the refresh token stops working.' })
  async blacklist(@Body() body: RefreshTokenDto): Promise<void> {
    await this.auth.blacklist(body);
  }
}
