import { Body, Controller, Get, Header, HttpCode, Inject, Logger, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../auth/decorators';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { ApiError } from '../../core/errors/api-error';
import { AcceptsForm } from '../../core/http/json-body.guard';
import { Answer, RequestBody } from '../../openapi/decorators';
import { Schemas } from '../../openapi/schemas';
import { SamlLoginQuery, ssoLoginRequest } from '../sso-login-request';
import { redirectOrRefuse } from '../sso-redirects';
import { SamlSignInService } from './saml-sign-in.service';

const ACS_BODY = {
  type: 'object',
  description: 'Posted by the browser as `application/x-www-form-urlencoded` (the HTTP-POST binding); JSON is read too.',
  required: ['SAMLResponse', 'RelayState'],
  properties: {
    SAMLResponse: { type: 'string', description: 'The encoded SAML response from the IdP.' },
    RelayState: { type: 'string', description: 'The frontend URL where redirect the authenticated user.' },
  },
};

/** Baserow's `/api/sso/saml/` (and the SP metadata to give the IdP). */
@ApiTags('Auth')
@Public()
@Controller('api/sso/saml')
export class SamlController {
  private readonly logger = new Logger(SamlController.name);

  constructor(
    private readonly saml: SamlSignInService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private redirect(res: Response, work: () => Promise<string>): Promise<void> {
    return redirectOrRefuse(res, this.config.webFrontendUrl, this.logger, 'SAML', work);
  }

  @Get('login')
  @HttpCode(302)
  @Answer(Schemas.any, { description: "To the IdP with an AuthnRequest (HTTP-Redirect binding), or to the web client's `/login/error?error=errorInvalidSamlRequest`." })
  @ApiOperation({ operationId: 'auth_provider_saml_sp_login', summary: "Starts a SAML sign-in at the IdP of the e-mail's domain (or the only one)." })
  async login(@Query() query: SamlLoginQuery, @Res() res: Response): Promise<void> {
    await this.redirect(res, () => this.saml.loginUrl(query.email, ssoLoginRequest(query)));
  }

  @Get('login-url')
  @Answer({ type: 'object', properties: { redirect_url: { type: 'string' } } })
  @ApiOperation({ operationId: 'auth_provider_login_url', summary: 'The URL that starts a SAML sign-in for the e-mail (needed when several SAML providers are configured).' })
  async loginUrl(@Query() query: SamlLoginQuery): Promise<{ redirect_url: string }> {
    if (!(await this.saml.providerFor(query.email))) throw new ApiError('ERROR_SAML_INVALID_LOGIN_REQUEST', 400, 'No identity provider found with the given information.');
    const params = new URLSearchParams();
    for (const key of ['email', 'original', 'language', 'workspace_invitation_token'] as const) if (query[key]) params.set(key, query[key]!);
    const search = params.toString();
    return { redirect_url: `${this.saml.acsUrl.replace(/acs\/$/, 'login/')}${search ? `?${search}` : ''}` };
  }

  @Post('acs')
  @AcceptsForm()
  @HttpCode(302)
  @RequestBody(ACS_BODY)
  @Answer(Schemas.any, { description: 'To the web client with `token` (a refresh token) and `user_session`, or to its `/login/error?error=`.' })
  @ApiOperation({ operationId: 'auth_provider_saml_acs_url', summary: 'Completes a SAML sign-in: verifies the posted response and signs the user in (or up).' })
  async acs(@Body() body: unknown, @Res() res: Response): Promise<void> {
    await this.redirect(res, () => this.saml.consume(typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}));
  }

  @Get('metadata')
  @Header('Content-Type', 'application/samlmetadata+xml')
  @Answer({ type: 'string' }, { contentType: 'application/samlmetadata+xml' })
  @ApiOperation({ operationId: 'auth_provider_saml_sp_metadata', summary: "This service provider's SAML metadata (entity id and ACS URL) to configure the IdP with." })
  metadata(): string {
    return this.saml.spMetadata();
  }
}
