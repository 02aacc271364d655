import { Mailer } from '../../src/core/mail/mailer';
import { signUp, SignedUp, TestApp } from './app';
import { exportWorkspace, uploadImport } from './workspace-zips';

/**
 * Everything one tenant owns that a route can name by id: a user with their example
 * workspace (database, tables Customers and Projects, fields, rows, a grid view), a finished
 * job, a snapshot of the database, a pending invitation with its token, a decoration of the grid view, a webhook, a second member of the
 * workspace, the notification of that member's acceptance, and a team with that member in it. The fuzz
 * suite and the tenant matrix resolve a route's path parameters from it by name.
 */
export interface Tenant {
  user: SignedUp;
  member: SignedUp;
  ids: Record<string, string>;
  /** The key of the user's database token (`tokenId`) on the workspace, with every permission. */
  tokenKey: string;
}

/**
 * Path parameter name → the tenant's value for it. A route with a parameter that is not here
 * fails the suites that use it: add the new object to `createTenant`.
 */
export const PATH_PARAMETERS = [
  'workspaceId',
  'applicationId',
  'databaseId',
  'tableId',
  'fieldId',
  'rowId',
  'viewId',
  'jobId',
  'job_id',
  'invitationId',
  'token',
  'workspaceUserId',
  'commentId',
  'tokenId',
  'decorationId',
  'slug',
  'viewFilterId',
  'viewFilterGroupId',
  'viewSortId',
  'viewGroupById',
  'templateId',
  'webhookId',
  'notificationId',
  'userId',
  'snapshotId',
  'resourceId',
  'authProviderId',
  'providerId',
  'teamId',
  'subjectId',
  'endpointId',
] as const;

async function ok<T = any>(t: TestApp, method: string, path: string, token: string | undefined, body?: unknown): Promise<T> {
  const res = await t.request(method, path, { token, body });
  if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${res.text}`);
  return res.body as T;
}

/** The id of the user's first database (sign-up makes one). */
export async function databaseOf(t: TestApp, user: SignedUp): Promise<number> {
  const apps = (await t.request('GET', '/api/applications/', { token: user.token })).body;
  return apps.find((a: { type: string }) => a.type === 'database').id;
}

/** A new table of a database without the two empty rows a table starts with. */
export async function emptyTable(t: TestApp, user: SignedUp, databaseId: number, name: string): Promise<number> {
  const id = (await t.request('POST', `/api/database/tables/database/${databaseId}/`, { token: user.token, body: { name } })).body.id as number;
  const ids = (await t.request('GET', `/api/database/rows/table/${id}/`, { token: user.token })).body.results.map((row: { id: number }) => row.id);
  if (ids.length) await t.request('POST', `/api/database/rows/table/${id}/batch-delete/`, { token: user.token, body: { items: ids } });
  return id;
}

/** `member` joins the owner's workspace as a MEMBER (invited, then accepting). */
export async function addMember(t: TestApp, owner: SignedUp, member: SignedUp, workspaceId: number): Promise<void> {
  const invitation = await ok<any>(t, 'POST', `/api/workspaces/invitations/workspace/${workspaceId}/`, owner.token, {
    email: member.email,
    permissions: 'MEMBER',
    message: '',
    base_url: 'http://localhost:8000/invite',
  });
  await ok(t, 'POST', `/api/workspaces/invitations/${invitation.id}/accept/`, member.token);
}

/** Polls `/api/jobs/{id}/` until the job has ended (or is not the user's to see); answers its body. */
export async function endedJob(t: TestApp, token: string, jobId: number | string): Promise<any> {
  for (let i = 0; i < 1500; i++) {
    const job = await t.request('GET', `/api/jobs/${jobId}/`, { token });
    if (job.status !== 200 || !['pending', 'started'].includes(job.body.state)) return job.body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`job ${jobId} did not end`);
}

/** Waits until a job is finished (or failed), so nothing changes behind a test's back. */
export async function settleJob(t: TestApp, token: string, jobId: number | string): Promise<void> {
  await endedJob(t, token, jobId);
}

export async function createTenant(t: TestApp, name: string): Promise<Tenant> {
  const user = await signUp(t, name);
  const member = await signUp(t, `${name} member`);
  const token = user.token;
  const [workspace] = await ok<any[]>(t, 'GET', '/api/workspaces/', token);
  const [database] = await ok<any[]>(t, 'GET', `/api/applications/workspace/${workspace.id}/`, token);
  const table = database.tables[0];
  const fields = await ok<any[]>(t, 'GET', `/api/database/fields/table/${table.id}/`, token);
  const field = fields.find((f) => !f.primary) ?? fields[0];
  const rows = await ok<any>(t, 'GET', `/api/database/rows/table/${table.id}/`, token);
  const views = await ok<any[]>(t, 'GET', `/api/database/views/table/${table.id}/`, token);
  const decoration = await ok<any>(t, 'POST', `/api/database/views/${views[0].id}/decorations/`, token, { type: 'left_border_color' });
  // A form (not public) for the routes that name a view by its slug, with its field options made.
  const form = await ok<any>(t, 'POST', `/api/database/views/table/${table.id}/`, token, { name: `${name} form`, type: 'form' });
  await ok(t, 'GET', `/api/database/views/${form.id}/field-options/`, token);
  // A gallery and a kanban (not public, the kanban without a single select field) for the shared rows routes of their types.
  const gallery = await ok<any>(t, 'POST', `/api/database/views/table/${table.id}/`, token, { name: `${name} gallery`, type: 'gallery' });
  const kanban = await ok<any>(t, 'POST', `/api/database/views/table/${table.id}/`, token, { name: `${name} kanban`, type: 'kanban' });
  // A calendar whose iCal feed was public once (it has a slug, the feed is off) and a timeline, neither shared, both without date fields.
  const calendar = await ok<any>(t, 'POST', `/api/database/views/table/${table.id}/`, token, { name: `${name} calendar`, type: 'calendar', ical_public: true });
  await ok(t, 'PATCH', `/api/database/views/${calendar.id}/`, token, { ical_public: false });
  const timeline = await ok<any>(t, 'POST', `/api/database/views/table/${table.id}/`, token, { name: `${name} timeline`, type: 'timeline' });
  // The view's saved filter (an empty value: it keeps every row), filter group, sort and group-by.
  const filterGroup = await ok<any>(t, 'POST', `/api/database/views/${views[0].id}/filter-groups/`, token, {});
  const viewFilter = await ok<any>(t, 'POST', `/api/database/views/${views[0].id}/filters/`, token, { field: field.id, type: 'contains', value: '', group: filterGroup.id });
  const viewSort = await ok<any>(t, 'POST', `/api/database/views/${views[0].id}/sortings/`, token, { field: field.id });
  const viewGroupBy = await ok<any>(t, 'POST', `/api/database/views/${views[0].id}/group_bys/`, token, { field: field.id });
  const comment = await ok<any>(t, 'POST', `/api/row_comments/${table.id}/${rows.results[0].id}/`, token, {
    message: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: `${name}'s comment` }] }] },
  });
  const job = await ok<any>(t, 'POST', `/api/database/tables/${table.id}/duplicate/async/`, token);
  const databaseToken = await ok<any>(t, 'POST', '/api/database/tokens/', token, { name: `${name} token`, workspace: workspace.id });
  const mcpEndpoint = await ok<any>(t, 'POST', '/api/mcp/endpoints/', token, { name: `${name} MCP`, workspace_id: workspace.id });
  // A webhook to a public address (no DNS lookup) on an event the suites rarely cause.
  const webhook = await ok<any>(t, 'POST', `/api/database/webhooks/table/${table.id}/`, token, { name: `${name} webhook`, url: 'http://93.184.216.34/hook', include_all_events: false, events: ['view.deleted'] });
  await settleJob(t, token, job.id);
  const snapshotJob = await ok<any>(t, 'POST', `/api/snapshots/application/${database.id}/`, token, { name: `${name} snapshot` });
  await settleJob(t, token, snapshotJob.id);
  const resource = await importResource(t, user, workspace.id);
  // A shared grid that allows public export, exported by nobody: the signed id of that job.
  const shared = await ok<any>(t, 'POST', `/api/database/views/table/${table.id}/`, token, { name: `${name} shared`, type: 'grid', public: true });
  await ok(t, 'PATCH', `/api/database/view/${shared.id}/premium`, token, { allow_public_export: true });
  const publicExport = await ok<any>(t, 'POST', `/api/database/view/${shared.slug}/export-public-view/`, undefined, { exporter_type: 'csv' });
  for (let i = 0; i < 1500; i++) {
    const state = (await ok<any>(t, 'GET', `/api/database/view/get-public-view-export/${publicExport.id}/`, undefined)).state;
    if (!['pending', 'exporting'].includes(state)) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  // The second member joins through an invitation; a second invitation stays pending.
  const mailer = t.app.get(Mailer);
  const sent: string[] = [];
  const original = mailer.send.bind(mailer);
  mailer.send = async (mail) => {
    sent.push(mail.text ?? '');
    return original(mail);
  };
  try {
    const base = { permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/workspace-invitation' };
    const joining = await ok<any>(t, 'POST', `/api/workspaces/invitations/workspace/${workspace.id}/`, token, { ...base, email: member.email });
    await ok(t, 'POST', `/api/workspaces/invitations/${joining.id}/accept/`, member.token);
    const pending = await ok<any>(t, 'POST', `/api/workspaces/invitations/workspace/${workspace.id}/`, token, {
      ...base,
      email: `pending-${user.email}`,
    });
    const invitationToken = /workspace-invitation\/(\S+)/.exec(sent[sent.length - 1])?.[1];
    if (!invitationToken) throw new Error('fixture: no invitation token was mailed');
    // The member's acceptance is a notification of the user's (workspace_invitation_accepted).
    const notifications = await ok<any>(t, 'GET', `/api/notifications/${workspace.id}/`, token);
    const notification = notifications.results.find((n: { type: string }) => n.type === 'workspace_invitation_accepted');
    if (!notification) throw new Error('fixture: no notification of the accepted invitation');
    const users = await ok<any[]>(t, 'GET', `/api/workspaces/users/workspace/${workspace.id}/`, token);
    const membership = users.find((u) => u.user_id === member.id);
    const team = await ok<any>(t, 'POST', `/api/teams/workspace/${workspace.id}/`, token, {
      name: `${name} team`,
      default_role: 'VIEWER',
      subjects: [{ subject_id: member.id, subject_type: 'auth.User' }],
    });
    return {
      user,
      member,
      ids: {
        workspaceId: String(workspace.id),
        applicationId: String(database.id),
        databaseId: String(database.id),
        tableId: String(table.id),
        fieldId: String(field.id),
        rowId: String(rows.results[0].id),
        viewId: String(views[0].id),
        jobId: String(job.id),
        // A public view export's signed id (its secret: anyone who has it reads the job).
        job_id: String(publicExport.id),
        invitationId: String(pending.id),
        token: invitationToken,
        workspaceUserId: String(membership.id),
        commentId: String(comment.id),
        tokenId: String(databaseToken.id),
        decorationId: String(decoration.id),
        // The grid view's slug (not public: only members may open it); form routes take the form's.
        slug: String(views[0].slug),
        formSlug: form.slug,
        gallerySlug: gallery.slug,
        kanbanSlug: kanban.slug,
        calendarSlug: calendar.slug,
        timelineSlug: timeline.slug,
        icalSlug: /([-\w]+)\.ics$/.exec(calendar.ical_feed_url)![1],
        viewFilterId: String(viewFilter.id),
        viewFilterGroupId: String(filterGroup.id),
        viewSortId: String(viewSort.id),
        viewGroupById: String(viewGroupBy.id),
        // Templates belong to no tenant: the first one of the catalogue.
        templateId: '1',
        webhookId: String(webhook.id),
        notificationId: String(notification.id),
        // The admin routes' user: the tenant's second member (never the tenant's own user).
        userId: String(member.id),
        snapshotId: String(snapshotJob.snapshot.id),
        resourceId: String(resource.id),
        // Auth providers belong to the instance, not to a tenant: the password provider (made by the migration).
        authProviderId: '1',
        providerId: '1',
        teamId: String(team.id),
        // The team's subject (the member), as `/api/teams/{teamId}/subjects/{subjectId}/` names it.
        subjectId: String(team.subject_sample[0].team_subject_id),
        endpointId: String(mcpEndpoint.id),
      },
      tokenKey: databaseToken.key,
    };
  } finally {
    mailer.send = original;
  }
}

/** An uploaded workspace import (of the workspace's own export, signed by the instance): the `{resourceId}` of the import routes. */
async function importResource(t: TestApp, user: SignedUp, workspaceId: number): Promise<{ id: number }> {
  const { zip } = await exportWorkspace(t, user.token, workspaceId, { only_structure: true });
  const res = await uploadImport(t, user.token, workspaceId, zip);
  if (res.status !== 200) throw new Error(`fixture: upload of the export: ${res.status} ${res.text}`);
  return res.body as { id: number };
}

/** Whether the tenant's objects are all still there and its user can still act (a fuzzed request may have deleted one). */
export async function tenantIntact(t: TestApp, tenant: Tenant): Promise<boolean> {
  const { ids, user } = tenant;
  const checks: [string, string | undefined][] = [
    [`/api/workspaces/${ids.workspaceId}/permissions/`, user.token],
    [`/api/applications/${ids.applicationId}/`, user.token],
    [`/api/database/tables/${ids.tableId}/`, user.token],
    [`/api/database/fields/${ids.fieldId}/`, user.token],
    [`/api/database/rows/table/${ids.tableId}/${ids.rowId}/`, user.token],
    [`/api/database/views/${ids.viewId}/`, user.token],
    [`/api/jobs/${ids.jobId}/`, user.token],
    [`/api/workspaces/invitations/${ids.invitationId}/`, user.token],
    [`/api/workspaces/invitations/token/${ids.token}/`, undefined],
    [`/api/database/tokens/${ids.tokenId}/`, user.token],
    [`/api/mcp/endpoint/${ids.endpointId}/`, user.token],
    [`/api/database/views/decoration/${ids.decorationId}/`, user.token],
    [`/api/database/views/form/${ids.formSlug}/submit/`, user.token],
    [`/api/database/views/filter/${ids.viewFilterId}/`, user.token],
    [`/api/database/views/filter-group/${ids.viewFilterGroupId}/`, user.token],
    [`/api/database/views/sort/${ids.viewSortId}/`, user.token],
    [`/api/database/views/group_by/${ids.viewGroupById}/`, user.token],
    [`/api/teams/${ids.teamId}/subjects/${ids.subjectId}/`, user.token],
  ];
  for (const [path, token] of checks) {
    if ((await t.request('GET', path, { token })).status !== 200) return false;
  }
  const comments = await t.request('GET', `/api/row_comments/${ids.tableId}/${ids.rowId}/?size=200`, { token: user.token });
  if (comments.status !== 200 || !comments.body.results.some((c: { id: number; trashed: boolean }) => String(c.id) === ids.commentId && !c.trashed)) return false;
  const notifications = await t.request('GET', `/api/notifications/${ids.workspaceId}/`, { token: user.token });
  if (notifications.status !== 200 || !notifications.body.results.some((n: { id: number }) => String(n.id) === ids.notificationId)) return false;
  const snapshots = await t.request('GET', `/api/snapshots/application/${ids.applicationId}/`, { token: user.token });
  if (snapshots.status !== 200 || !snapshots.body.some((s: { id: number }) => String(s.id) === ids.snapshotId)) return false;
  const users = await t.request('GET', `/api/workspaces/users/workspace/${ids.workspaceId}/`, { token: user.token });
  return users.status === 200 && users.body.some((u: { id: number }) => String(u.id) === ids.workspaceUserId);
}

/** Fills `{name}` path parameters from the tenant's ids. */
export function fillPath(path: string, ids: Record<string, string>, overrides: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    // Baserow names every view's `{slug}` alike: form, gallery, kanban, calendar and timeline routes get the tenant's view of their type.
    const typed = /\/views\/(form|gallery|kanban|calendar|timeline)\//.exec(path)?.[1];
    const key = name === 'slug' && typed ? `${typed}Slug` : name;
    const value = overrides[key] ?? overrides[name] ?? ids[key];
    if (value === undefined) throw new Error(`No fixture for the path parameter {${name}} of ${path}: add it to test/support/fixtures.ts`);
    return value;
  });
}
