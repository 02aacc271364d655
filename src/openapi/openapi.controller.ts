import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Answer } from './decorators';
import type { Response } from 'express';
import { Public } from '../auth/decorators';
import { OpenApiService } from './openapi.service';

const REDOC_BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');

const REDOC_PAGE = `<!DOCTYPE html>
<html>
  <head>
    <title>Rowspace API</title>
    <meta charset="utf-8"/>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <redoc spec-url="/api/schema.json"></redoc>
    <script src="/api/redoc/redoc.standalone.js"></script>
  </body>
</html>
`;

@ApiTags('Settings')
@Controller('api')
@Public()
export class OpenApiController {
  constructor(private readonly openApi: OpenApiService) {}

  @Get('schema.json')
  @Answer({ type: 'object', description: 'An OpenAPI 3 document.', additionalProperties: true })
  @ApiOperation({ operationId: 'schema', summary: 'This OpenAPI 3 document.' })
  schema(): unknown {
    return this.openApi.get();
  }

  @Get('redoc')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Answer({ type: 'string' }, { contentType: 'text/html' })
  @ApiOperation({ operationId: 'redoc', summary: 'The API reference, rendered by Redoc served from this instance.' })
  redoc(): string {
    return REDOC_PAGE;
  }

  @Get('redoc/redoc.standalone.js')
  @Answer({ type: 'string' }, { contentType: 'application/javascript' })
  @ApiOperation({ operationId: 'redoc_bundle', summary: 'The Redoc script the reference page loads.' })
  bundle(@Res() res: Response): void {
    res.type('application/javascript').set('Cache-Control', 'public, max-age=86400').sendFile(REDOC_BUNDLE);
  }
}
