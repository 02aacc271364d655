import { INestApplication, Injectable } from '@nestjs/common';
import { HTTP_CODE_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, RequestBodyObject, ResponsesObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { AUTH_SCHEMES, AuthScheme, authenticationOf, OPTIONAL_SCHEMES } from '../auth/decorators';
import { Route, RouteTable } from '../core/http/route-table';
import { dynamicQueries } from '../core/validation/dynamic-query';
import { fieldSpecs } from '../core/validation/field';
import { INT32_MAX } from '../core/validation/ids';
import { AnswerSpec, OPENAPI_ANSWER, OPENAPI_BODY, OPENAPI_BODY_CONTENT_TYPE, OPENAPI_MULTIPART_BODY, SchemaSource } from './decorators';
import { COMPONENT_SCHEMAS, Schemas } from './schemas';

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

/**
 * The OpenAPI 3 document, generated from the controllers' decorators when it is first asked
 * for (generating it takes a good part of a start-up's time).
 */
@Injectable()
export class OpenApiService {
  private document: OpenAPIObject | null = null;
  private app: INestApplication | null = null;

  /** Called once the app has started: its routes are what the document describes. */
  serve(app: INestApplication): void {
    this.app = app;
  }

  get(): OpenAPIObject {
    if (!this.app) throw new Error('The OpenAPI document describes a started app.');
    return (this.document ??= this.build(this.app));
  }

  private build(app: INestApplication): OpenAPIObject {
    const config = new DocumentBuilder()
      .setTitle('Rowspace API')
      .setVersion(version)
      .setDescription(
        "Rowspace serves Baserow's REST API. Authenticate with `Authorization: JWT <access_token>` " +
          '(from `POST /api/user/token-auth/`) or, on the row endpoints, `Authorization: Token <database token>`. ' +
          "Every path ends with a slash (but premium's `PATCH /api/database/view/{view_id}/premium`, as in Baserow). Real-time changes arrive over the WebSocket `/ws/core/?jwt_token=<access_token>`.",
      )
      .setLicense('MIT', 'https://opensource.org/licenses/MIT')
      .build();
    // As Baserow's: an API key in the `Authorization` header, its keyword telling the scheme.
    config.components = {
      ...config.components,
      securitySchemes: Object.fromEntries(
        Object.values(AUTH_SCHEMES).map(({ name, header, description }) => [name, { type: 'apiKey', in: 'header', name: header, description }]),
      ),
    };
    const document = SwaggerModule.createDocument(app, config);
    const used = new Set<string>();
    const paths: OpenAPIObject['paths'] = {};
    // The few routes declared without one (`@NoTrailingSlash()`), as the route table serves them.
    const bare = new Set(app.get(RouteTable).all().filter((route) => !route.trailingSlash).map((route) => openApiPath(route.path)));
    for (const [path, item] of Object.entries(document.paths)) {
      // Baserow's paths end with a slash (file-like ones such as schema.json excepted).
      const last = path.split('/').pop() ?? '';
      paths[last.includes('.') || bare.has(path) ? path : `${path}/`] = item;
      for (const operation of Object.values(item)) for (const tag of (operation as { tags?: string[] }).tags ?? []) used.add(tag);
    }
    document.paths = paths;
    // Each operation's security follows the route's `Authentication` declaration (none: public).
    const reflector = app.get(Reflector);
    const operationIds = new Set<string>();
    for (const route of app.get(RouteTable).all()) {
      const operation = paths[openApiPath(route.path)]?.[route.method.toLowerCase() as 'get'];
      if (!operation) continue;
      // A handler served on two paths (`/_health/` and `/api/_health/`): ids must stay unique for client generators.
      const base = operation.operationId ?? '';
      for (let n = 2; operationIds.has(operation.operationId ?? ''); n++) operation.operationId = `${base}_${n}`;
      operationIds.add(operation.operationId ?? '');
      const schemes = authenticationOf(reflector, route.handler, route.controller);
      operation.security = schemes.map((scheme: AuthScheme) => ({ [AUTH_SCHEMES[scheme].name]: [] }));
      // Optional credentials (a shared view's routes): calling without any is allowed too.
      if (schemes.some((scheme) => OPTIONAL_SCHEMES.includes(scheme))) operation.security.push({});
      describeRoute(app, reflector, route, operation);
    }
    document.components = { ...document.components, schemas: { ...document.components?.schemas, ...COMPONENT_SCHEMAS } };
    document.tags = TAGS.filter((tag) => used.has(tag)).map((name) => ({ name }));
    return document;
  }
}

/** The OpenAPI path of an Express route path (`/api/x/:id/` → `/api/x/{id}/`). */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}

/** What a handler reads: its `@Body()` and `@Query()` parameter types (absent when it reads none). */
export function routeArguments(route: Route): { body?: Function; query?: Function } {
  const name = route.handler.name;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, name) ?? {}) as Record<string, { index: number; data?: unknown }>;
  const types = (Reflect.getMetadata('design:paramtypes', route.controller.prototype, name) ?? []) as Function[];
  const found: { body?: Function; query?: Function } = {};
  for (const [key, arg] of Object.entries(args)) {
    const kind = Number(key.split(':')[0]);
    if (kind === RouteParamtypes.BODY) found.body = types[arg.index] ?? Object;
    if (kind === RouteParamtypes.QUERY) found.query = types[arg.index] ?? Object;
  }
  return found;
}

const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: Schemas.ref('Error') } } });
const resolve = (app: INestApplication, source: SchemaSource) => (typeof source === 'function' ? source(app) : source);

/**
 * Completes an operation from its route's declarations: integer path ids, the dynamic query
 * parameters, the request body of handlers without a DTO, the success answer and the error
 * envelope answers the route can give.
 */
function describeRoute(app: INestApplication, reflector: Reflector, route: Route, operation: OperationObject): void {
  const args = routeArguments(route);
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  for (const parameter of parameters) {
    if (parameter.in === 'path' && (parameter.name === 'id' || /Id$/.test(parameter.name))) parameter.schema = { type: 'integer', minimum: 1, maximum: INT32_MAX };
  }
  for (const dynamic of args.query ? dynamicQueries(args.query) : []) {
    parameters.push({
      name: dynamic.name,
      in: 'query',
      required: false,
      description: dynamic.description,
      schema: { type: 'string' },
      'x-name-example': dynamic.example,
      'x-name-pattern': dynamic.pattern.source,
    } as ParameterObject);
  }
  operation.parameters = parameters;

  const body = reflector.get<SchemaSource | undefined>(OPENAPI_BODY, route.handler);
  const bodyType = reflector.get<string | undefined>(OPENAPI_BODY_CONTENT_TYPE, route.handler) ?? 'application/json';
  if (body) operation.requestBody = { required: true, content: { [bodyType]: { schema: resolve(app, body) } } };
  const multipart = reflector.get<SchemaSource | undefined>(OPENAPI_MULTIPART_BODY, route.handler);
  if (multipart) {
    const requestBody = (operation.requestBody ?? { required: true, content: {} }) as RequestBodyObject;
    requestBody.content['multipart/form-data'] = { schema: resolve(app, multipart) };
    operation.requestBody = requestBody;
  }

  const status = reflector.get<number | undefined>(HTTP_CODE_METADATA, route.handler) ?? (route.method === 'POST' ? 201 : 200);
  const answer = reflector.get<AnswerSpec | undefined>(OPENAPI_ANSWER, route.handler);
  const responses: ResponsesObject = {};
  if (status === 204) responses['204'] = { description: answer?.description ?? 'Done; no body.' };
  // A redirect (single sign-on): where to is in `Location`.
  else if (status >= 300 && status < 400) responses[String(status)] = { description: answer?.description ?? 'A redirect.', headers: { Location: { schema: { type: 'string', format: 'uri' } } } };
  else {
    const existing = (operation.responses?.[String(status)] as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.['application/json']?.schema;
    const schema = answer ? resolve(app, answer.schema) : (existing ?? Schemas.any);
    responses[String(status)] = { description: answer?.description ?? 'Success.', content: { [answer?.contentType ?? 'application/json']: { schema } } };
  }
  const takesInput = !!args.body || route.streamsBody || (args.query && (fieldSpecs(args.query) || dynamicQueries(args.query).length));
  if (takesInput) responses['400'] = errorAnswer('Invalid request: `ERROR_REQUEST_BODY_VALIDATION`, `ERROR_QUERY_PARAMETER_VALIDATION` or another error of the operation.');
  // Routes only a database token opens answer every authentication failure with 403, as Baserow's.
  const tokenOnly = operation.security?.length === 1 && AUTH_SCHEMES.Token.name in operation.security[0];
  if (operation.security?.length) responses[tokenOnly ? '403' : '401'] = errorAnswer('Missing or invalid credentials.');
  if (/:/.test(route.path)) responses['404'] = errorAnswer('The object does not exist or is not yours (`ERROR_..._DOES_NOT_EXIST`).');
  if (args.body) responses['413'] = errorAnswer('`ERROR_REQUEST_BODY_TOO_LARGE`: the body exceeds the configured limit.');
  else if (route.streamsBody) responses['413'] = errorAnswer('The streamed body exceeds its limit (e.g. `ERROR_FILE_SIZE_TOO_LARGE`).');
  operation.responses = responses;
}
