import Database from 'better-sqlite3';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Client } from 'pg';
import { UnitOfWork } from '../src/core/database/unit-of-work';
import { DomainEvent } from '../src/core/events/domain-events';
import { WorkspaceRepository } from '../src/workspaces/workspace.repository';
import { signUp, startApp, TEST_DB, TestApp } from './support/app';

/** Reads a workspace's name over a second connection, which only sees committed data. */
async function committedName(t: TestApp, workspaceId: number): Promise<string | undefined> {
  if (TEST_DB === 'sqlite') {
    const db = new Database(t.config.sqlitePath, { readonly: true });
    try {
      return (db.prepare('SELECT name FROM workspace WHERE id = ?').get(workspaceId) as { name: string } | undefined)?.name;
    } finally {
      db.close();
    }
  }
  const client = new Client({ connectionString: t.config.databaseUrl! });
  await client.connect();
  try {
    return (await client.query('SELECT name FROM workspace WHERE id = $1', [workspaceId])).rows[0]?.name;
  } finally {
    await client.end();
  }
}

describe('domain events (recorded in the unit of work, dispatched after commit)', () => {
  let t: TestApp;
  let emitter: EventEmitter2;
  beforeAll(async () => {
    t = await startApp();
    emitter = t.app.get(EventEmitter2);
  });
  afterAll(() => t.close());

  it('dispatches once, after the change is committed, with the requesting user and WebSocketId', async () => {
    const user = await signUp(t);
    const workspaceId = (await t.request('GET', '/api/workspaces/', { token: user.token })).body[0].id;
    const seen: { event: DomainEvent; committed: string | undefined }[] = [];
    const listener = async (event: DomainEvent) => {
      seen.push({ event, committed: await committedName(t, workspaceId) });
    };
    emitter.on('workspace.updated', listener);
    try {
      const res = await t.request('PATCH', `/api/workspaces/${workspaceId}/`, {
        token: user.token,
        body: { name: 'Renamed' },
        headers: { WebSocketId: 'socket-1' },
      });
      expect(res.status).toBe(200);
    } finally {
      emitter.off('workspace.updated', listener);
    }
    expect(seen).toHaveLength(1);
    expect(seen[0].committed).toBe('Renamed');
    expect(seen[0].event).toEqual({
      name: 'workspace.updated',
      payload: { workspaceId },
      actor: { userId: user.id, webSocketId: 'socket-1' },
    });
  });

  it('drops the events of a unit of work that rolls back, and its writes', async () => {
    const user = await signUp(t);
    const workspaceId = (await t.request('GET', '/api/workspaces/', { token: user.token })).body[0].id;
    const db = t.app.get(UnitOfWork);
    const repo = t.app.get(WorkspaceRepository);
    const seen: DomainEvent[] = [];
    const listener = (event: DomainEvent) => seen.push(event);
    emitter.on('workspace.updated', listener);
    try {
      await expect(
        db.run(async () => {
          await repo.updateWorkspace(workspaceId, { name: 'Never' });
          db.record('workspace.updated', { workspaceId });
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
    } finally {
      emitter.off('workspace.updated', listener);
    }
    expect(seen).toHaveLength(0);
    expect(await committedName(t, workspaceId)).toBe(`${user.name}'s workspace`);
  });

  it('sends nothing for a request that fails validation', async () => {
    const user = await signUp(t);
    const workspaceId = (await t.request('GET', '/api/workspaces/', { token: user.token })).body[0].id;
    const seen: DomainEvent[] = [];
    const listener = (event: DomainEvent) => seen.push(event);
    emitter.onAny(listener as never);
    try {
      const res = await t.request('PATCH', `/api/workspaces/${workspaceId}/`, { token: user.token, body: { name: 'x'.repeat(166) } });
      expect(res.status).toBe(400);
      expect(res.body.detail.name[0].code).toBe('max_length');
    } finally {
      emitter.offAny(listener as never);
    }
    expect(seen).toHaveLength(0);
  });

  it('keeps concurrent writes apart (SQLite transactions are queued, PostgreSQL runs them in parallel)', async () => {
    const user = await signUp(t);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.request('POST', '/api/workspaces/', { token: user.token, body: { name: `W${i}` } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const list = await t.request('GET', '/api/workspaces/', { token: user.token });
    expect(list.body).toHaveLength(11);
    expect(new Set(list.body.map((w: { order: number }) => w.order)).size).toBeGreaterThan(1);
  });
});
