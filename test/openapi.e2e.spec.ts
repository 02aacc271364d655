import { Reflector } from '@nestjs/core';
import { AUTH_SCHEMES, authenticationOf, OPTIONAL_SCHEMES } from '../src/auth/decorators';
import { RouteTable } from '../src/core/http/route-table';
import { dynamicQueries } from '../src/core/validation/dynamic-query';
import { fieldSpecs } from '../src/core/validation/field';
import { openApiPath, routeArguments } from '../src/openapi/openapi.service';
import { startApp, TestApp } from './support/app';

describe('OpenAPI document and Redoc', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('serves OpenAPI 3 with the title, security schemes and Baserow tags', async () => {
    const res = await t.request('GET', '/api/schema.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.info.title).toBe('Rowspace API');
    expect(Object.keys(res.body.components.securitySchemes).sort()).toEqual(['Database token', 'JWT', 'Public view']);
    const tags = res.body.tags.map((tag: { name: string }) => tag.name);
    expect(tags.slice(0, 2)).toEqual(['Settings', 'User']);
    expect(tags).toContain('Workspaces');
    expect(tags).toContain('Applications');
  });

  it('documents every route of the app, with Baserow operation ids', async () => {
    const schema = (await t.request('GET', '/api/schema.json')).body;
    const routes = t.app.get(RouteTable).all();
    expect(routes.length).toBeGreaterThan(40);
    const missing: string[] = [];
    for (const route of routes) {
      const path = route.path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
      if (!schema.paths[path]?.[route.method.toLowerCase()]) missing.push(`${route.method} ${path}`);
    }
    expect(missing).toEqual([]);
    expect(schema.paths['/api/user/token-auth/'].post.operationId).toBe('token_auth');
    // Exactly what a client must send: a key in a header whose keyword (`JWT `, `Token `) tells the
    // scheme. Baserow publishes `http`/`bearer` with a `bearerFormat` of `JWT your_token`, which a
    // generated client would send as `Bearer <token>`; an apiKey in `Authorization` says it right.
    // A shared view's password token has its own header, as Baserow's.
    const described = (name: string, header: string) => ({ type: 'apiKey', in: 'header', name: header, description: expect.stringContaining(`${header}: ${name}`) });
    expect(schema.components.securitySchemes).toEqual({
      JWT: described('JWT', 'Authorization'),
      'Database token': described('Token', 'Authorization'),
      'Public view': described('JWT', 'Baserow-View-Authorization'),
    });
    expect(schema.paths['/api/workspaces/'].get.operationId).toBe('list_workspaces');
    // Baserow enterprise's audit log, at both of its mounts.
    expect(schema.paths['/api/audit-log/'].get.operationId).toBe('audit_log_list');
    expect(schema.paths['/api/audit-log/export/'].post.operationId).toBe('async_audit_log_export');
    expect(schema.paths['/api/admin/audit-log/action-types/'].get.operationId).toBe('admin_audit_log_action_types');
  });

  it('gives every route an operation id and the security its Authentication declares', async () => {
    const schema = (await t.request('GET', '/api/schema.json')).body;
    const reflector = t.app.get(Reflector);
    const wrong: string[] = [];
    const ids = new Set<string>();
    for (const route of t.app.get(RouteTable).all()) {
      const operation = schema.paths[openApiPath(route.path)][route.method.toLowerCase()];
      const label = `${route.method} ${route.path}`;
      if (!operation.operationId || ids.has(operation.operationId)) wrong.push(`${label}: operationId ${operation.operationId}`);
      ids.add(operation.operationId);
      const schemes = authenticationOf(reflector, route.handler, route.controller);
      const declared: Record<string, never[]>[] = schemes.map((scheme) => ({ [AUTH_SCHEMES[scheme].name]: [] }));
      // Optional credentials (shared views): no credentials at all is allowed too.
      if (schemes.some((scheme) => OPTIONAL_SCHEMES.includes(scheme))) declared.push({});
      if (JSON.stringify(operation.security) !== JSON.stringify(declared)) wrong.push(`${label}: security ${JSON.stringify(operation.security)}`);
    }
    expect(wrong).toEqual([]);
    const security = (path: string, method: string) => schema.paths[path][method].security;
    for (const [path, method] of [['/api/user/send-reset-password-email/', 'post'], ['/api/user/', 'post'], ['/api/user/token-auth/', 'post'], ['/api/_health/', 'get'], ['/api/settings/', 'get']]) {
      expect([path, security(path, method)]).toEqual([path, []]);
    }
    expect(security('/api/workspaces/', 'get')).toEqual([{ JWT: [] }]);
    expect(security('/api/database/rows/table/{tableId}/', 'get')).toEqual([{ JWT: [] }, { 'Database token': [] }]);
    expect(security('/api/database/tables/all-tables/', 'get')).toEqual([{ 'Database token': [] }]);
    expect(security('/api/database/rows/table/{tableId}/{rowId}/adjacent/', 'get')).toEqual([{ JWT: [] }]);
  });

  it('documents every query parameter, request body and answer of every route', async () => {
    const schema = (await t.request('GET', '/api/schema.json')).body;
    const wrong: string[] = [];
    for (const route of t.app.get(RouteTable).all()) {
      const operation = schema.paths[openApiPath(route.path)][route.method.toLowerCase()];
      const label = `${route.method} ${route.path}`;
      const args = routeArguments(route);
      const documented = new Map<string, any>((operation.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => [p.name, p]));
      if (args.query) {
        const declared = [...(fieldSpecs(args.query)?.keys() ?? [])];
        if (!declared.length && !dynamicQueries(args.query).length) wrong.push(`${label}: reads the query without a DTO`);
        for (const name of declared) if (!documented.has(name)) wrong.push(`${label}: query ${name} undocumented`);
        for (const dynamic of dynamicQueries(args.query)) {
          const parameter = documented.get(dynamic.name);
          if (!parameter || parameter['x-name-pattern'] !== dynamic.pattern.source || !new RegExp(parameter['x-name-pattern']).test(parameter['x-name-example'])) {
            wrong.push(`${label}: dynamic query ${dynamic.name} undocumented`);
          }
        }
      } else if (documented.size) wrong.push(`${label}: documents query parameters it does not read`);
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (args.body && !body) wrong.push(`${label}: request body undocumented`);
      // Streamed bodies (uploads) are read by the handler itself, and documented in their own media type.
      if (route.streamsBody && !Object.values<any>(operation.requestBody?.content ?? {})[0]?.schema) wrong.push(`${label}: streamed body undocumented`);
      if (!args.body && !route.streamsBody && operation.requestBody) wrong.push(`${label}: documents a body it does not read`);
      const statuses = Object.keys(operation.responses ?? {});
      const success = statuses.filter((status) => /^[23]/.test(status));
      if (success.length !== 1) wrong.push(`${label}: success answers ${success}`);
      else if (/^3/.test(success[0])) {
        if (!operation.responses[success[0]].headers?.Location) wrong.push(`${label}: redirect ${success[0]} without Location`);
      } else if (success[0] !== '204') {
        const content = operation.responses[success[0]].content ?? {};
        const answer = Object.values<any>(content)[0]?.schema;
        if (!answer || !Object.keys(answer).length) wrong.push(`${label}: answer ${success[0]} has no schema`);
      } else if (operation.responses['204'].content) wrong.push(`${label}: 204 with content`);
      const expectError = (status: string, when: boolean) => {
        if (when && operation.responses[status]?.content?.['application/json']?.schema?.$ref !== '#/components/schemas/Error') wrong.push(`${label}: no ${status} envelope`);
      };
      expectError('400', !!args.body || !!args.query || route.streamsBody);
      const tokenOnly = JSON.stringify(operation.security) === JSON.stringify([{ 'Database token': [] }]);
      expectError(tokenOnly ? '403' : '401', operation.security.length > 0);
      expectError('404', route.path.includes(':'));
      expectError('413', !!args.body || route.streamsBody);
    }
    expect(wrong).toEqual([]);
  });

  it('documents the field body as one schema per registered field type', async () => {
    const schema = (await t.request('GET', '/api/schema.json')).body;
    const create = schema.paths['/api/database/fields/table/{tableId}/'].post.requestBody.content['application/json'].schema;
    const text = create.oneOf.find((variant: any) => variant.title === 'text');
    expect(text.properties.type).toEqual({ type: 'string', enum: ['text'] });
    expect(text.required).toEqual(expect.arrayContaining(['name', 'type']));
    expect(text.properties).toHaveProperty('text_default');
    const rating = create.oneOf.find((variant: any) => variant.title === 'rating');
    expect(rating.properties).toHaveProperty('max_value');
    const update = schema.paths['/api/database/fields/{fieldId}/'].patch.requestBody.content['application/json'].schema;
    expect(update.anyOf.length).toBe(create.oneOf.length);
    expect(update.anyOf.every((variant: any) => !variant.required)).toBe(true);
  });

  it("documents the snapshot routes with Baserow's operation ids and statuses", async () => {
    const schema = (await t.request('GET', '/api/schema.json')).body;
    const list = schema.paths['/api/snapshots/application/{applicationId}/'];
    expect([list.get.operationId, Object.keys(list.get.responses).filter((s) => /^2/.test(s))]).toEqual(['list_snapshots', ['200']]);
    expect([list.post.operationId, Object.keys(list.post.responses).filter((s) => /^2/.test(s))]).toEqual(['create_snapshot', ['202']]);
    const ref = (schemaOrRef: any) => (schemaOrRef.$ref ? schema.components.schemas[schemaOrRef.$ref.split('/').pop()] : schemaOrRef);
    expect(ref(list.post.requestBody.content['application/json'].schema).required).toEqual(['name']);
    const restore = schema.paths['/api/snapshots/{snapshotId}/restore/'].post;
    expect([restore.operationId, Object.keys(restore.responses).filter((s) => /^2/.test(s))]).toEqual(['restore_snapshot', ['200']]);
    const remove = schema.paths['/api/snapshots/{snapshotId}/'].delete;
    expect([remove.operationId, Object.keys(remove.responses).filter((s) => /^2/.test(s))]).toEqual(['delete_snapshot', ['204']]);
    const item = list.get.responses['200'].content['application/json'].schema.items;
    expect(Object.keys(ref(item).properties).sort()).toEqual(['created_at', 'created_by', 'id', 'name', 'snapshot_from_application']);
  });

  it("documents the teams routes with Baserow's operation ids and the team's keys", async () => {
    const schema = (await t.request('GET', '/api/schema.json')).body;
    const ref = (schemaOrRef: any) => (schemaOrRef.$ref ? schema.components.schemas[schemaOrRef.$ref.split('/').pop()] : schemaOrRef);
    const ops = (path: string) => Object.fromEntries(Object.entries(schema.paths[path]).map(([method, op]: [string, any]) => [method, op.operationId]));
    expect(ops('/api/teams/workspace/{workspaceId}/')).toEqual({ get: 'workspace_list_teams', post: 'workspace_create_team' });
    expect(ops('/api/teams/{teamId}/')).toEqual({ get: 'get_team', put: 'update_team', delete: 'delete_team' });
    expect(ops('/api/teams/{teamId}/subjects/')).toEqual({ get: 'list_team_subjects', post: 'create_subject' });
    expect(ops('/api/teams/{teamId}/subjects/{subjectId}/')).toEqual({ get: 'get_subject', delete: 'delete_subject' });
    const team = ref(schema.paths['/api/teams/{teamId}/'].get.responses['200'].content['application/json'].schema);
    expect(Object.keys(team.properties).sort()).toEqual(['created_on', 'default_role', 'id', 'name', 'subject_count', 'subject_sample', 'updated_on', 'workspace']);
  });

  it("documents the field permissions route with Baserow's operation ids and keys", async () => {
    const schema = (await t.request('GET', '/api/schema.json')).body;
    const ref = (schemaOrRef: any) => (schemaOrRef.$ref ? schema.components.schemas[schemaOrRef.$ref.split('/').pop()] : schemaOrRef);
    const item = schema.paths['/api/field-permissions/{fieldId}/'];
    expect([item.get.operationId, item.patch.operationId]).toEqual(['get_field_permissions', 'update_field_permissions']);
    const answer = ref(item.patch.responses['200'].content['application/json'].schema);
    expect(Object.keys(answer.properties).sort()).toEqual(['allow_in_forms', 'can_write_values', 'field_id', 'role']);
    const body = ref(item.patch.requestBody.content['application/json'].schema);
    expect(body.properties.role.enum).toEqual(['ADMIN', 'BUILDER', 'EDITOR', 'NOBODY']);
  });

  it('renders Redoc from this instance, without a CDN', async () => {
    const page = await t.request('GET', '/api/redoc/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('spec-url="/api/schema.json"');
    const script = page.text.match(/<script src="([^"]+)"/)![1];
    expect(script.startsWith('/')).toBe(true);
    const bundle = await fetch(t.url + script);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100000);
  });
});
