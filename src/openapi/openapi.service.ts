import { INestApplication, Injectable } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

// The package root is two folders up both from src/openapi and from dist/openapi.
const { version } = require('../../package.json') as { version: string };

/** Baserow's tags, in Baserow's order (the ones Rowspace serves). */
export const TAGS = [
  'Settings', 'User', 'User files', 'Workspaces', 'Workspace invitations', 'Templates', 'Trash', 'Applications',
  'Snapshots', 'Jobs', 'Integrations', 'User sources', 'Database tables', 'Database table fields',
  'Database table views', 'Database table view filters', 'Database table view sortings',
  'Database table view decorations', 'Database table view groupings', 'Database table view export',
  'Database table grid view', 'Database table gallery view', 'Database table form view',
  'Database table kanban view', 'Database table calendar view', 'Database table rows',
  'Database table export', 'Database table webhooks', 'Database tokens', 'Admin',
  'Health',
];

/** The OpenAPI 3 document, generated from the controllers' decorators once the app has started. */
@Injectable()
export class OpenApiService {
  private document: OpenAPIObject | null = null;

  build(app: INestApplication): void {
    const config = new DocumentBuilder()
      .setTitle('Rowspace API')
      .setVersion(version)
      .setDescription(
        "Rowspace serves Baserow's REST API. Authenticate with `Authorization: JWT <access_token>` " +
          '(from `POST /api/user/token-auth/`) or, on the row endpoints, `Authorization: Token <database token>`. ' +
          'Every path ends with a slash. Real-time changes arrive over the WebSocket `/ws/core/?jwt_token=<access_token>`.',
      )
      .setLicense('MIT', 'https://opensource.org/licenses/MIT')
      .addSecurity('JWT', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT your_token' })
      .addSecurity('Token', { type: 'http', scheme: 'bearer', bearerFormat: 'Token your_token' })
      .build();
    const document = SwaggerModule.createDocument(app, config);
    const used = new Set<string>();
    const paths: OpenAPIObject['paths'] = {};
    for (const [path, item] of Object.entries(document.paths)) {
      // Baserow's paths end with a slash (file-like ones such as schema.json excepted).
      const last = path.split('/').pop() ?? '';
      paths[last.includes('.') ? path : `${path}/`] = item;
      for (const operation of Object.values(item)) for (const tag of (operation as { tags?: string[] }).tags ?? []) used.add(tag);
    }
    document.paths = paths;
    document.tags = TAGS.filter((tag) => used.has(tag)).map((name) => ({ name }));
    this.document = document;
  }

  get(): OpenAPIObject {
    if (!this.document) throw new Error('The OpenAPI document is built when the app starts.');
    return this.document;
  }
}
