import { Controller, Get, HttpCode, Inject, Logger, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/decorators';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { IdParam } from '../../core/http/params';
import { Answer } from '../../openapi/decorators';
import { Schemas } from '../../openapi/schemas';
import { OAuth2CallbackQuery, SsoLoginQuery, ssoLoginRequest } from '../sso-login-request';
import { redirectOrRefuse } from '../sso-redirects';
import { OidcSignInService } from './oidc-sign-in.service';

/** The cookie that binds a started sign-in to the browser that started it. */
const BROWSER_COOKIE = 'rowspace_sso_oauth2';

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Baserow's `/api/sso/oauth2/`: both answer 302 (to the provider, to the web client, or to its error page). */
@ApiTags('Auth')
@Public()
@Controller('api/sso/oauth2')
export class OidcController {
  private readonly logger = new Logger(OidcController.name);

  constructor(
    private readonly oidc: OidcSignInService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private redirect(res: Response, work: () => Promise<string>): Promise<void> {
    return redirectOrRefuse(res, this.config.webFrontendUrl, this.logger, 'OpenID Connect', work);
  }

  @Get('login/:providerId')
  @HttpCode(302)
  @Answer(Schemas.any, { description: "To the provider's authorization URL, or to the web client's `/login/error?error=`." })
  @ApiOperation({ operationId: 'oauth_provider_login_redirect', summary: "Starts an OpenID Connect sign-in: redirects to the provider with state, nonce and a PKCE challenge." })
  async login(@IdParam('providerId') id: number, @Query() query: SsoLoginQuery, @Res() res: Response): Promise<void> {
    const request = ssoLoginRequest(query);
    await this.redirect(res, async () => {
      const { location, browser } = await this.oidc.start(id, request);
      res.cookie(BROWSER_COOKIE, browser, { httpOnly: true, sameSite: 'lax', secure: this.config.publicUrl.startsWith('https:'), path: '/api/sso/oauth2/', maxAge: 10 * 60 * 1000 });
      return location;
    });
  }

  @Get('callback/:providerId')
  @HttpCode(302)
  @Answer(Schemas.any, { description: 'To the web client with `token` (a refresh token) and `user_session`, or to its `/login/error?error=`.' })
  @ApiOperation({ operationId: 'oauth_provider_login_callback', summary: "Finishes an OpenID Connect sign-in: checks the state, verifies the ID token and signs the user in." })
  async callback(@IdParam('providerId') id: number, @Query() query: OAuth2CallbackQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.clearCookie(BROWSER_COOKIE, { path: '/api/sso/oauth2/' });
    await this.redirect(res, () => this.oidc.callback(id, { ...query }, cookie(req, BROWSER_COOKIE)));
  }
}
