import { Inject, Injectable } from '@nestjs/common';
import { In, IsNull, Not } from 'typeorm';
import { Dialect } from '../core/database/dialect';
import { Sql } from '../core/database/sql';
import { DIALECT } from '../core/database/tokens';
import { UnitOfWork } from '../core/database/unit-of-work';
import { TableWebhookCallEntity, TableWebhookEntity, WebhookDeliveryEntity } from './webhook.entity';

/** A call to queue: what the outbox row holds. */
export interface QueuedCall {
  webhookId: number;
  eventId: string;
  eventType: string;
  batchId: number | null;
  payload: string;
}

/** Webhooks, their call logs and the outbox of calls to make. */
@Injectable()
export class WebhookRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  private get webhooks() {
    return this.db.manager.getRepository(TableWebhookEntity);
  }

  private get calls() {
    return this.db.manager.getRepository(TableWebhookCallEntity);
  }

  private get deliveries() {
    return this.db.manager.getRepository(WebhookDeliveryEntity);
  }

  // Webhooks

  ofTable(tableId: number): Promise<TableWebhookEntity[]> {
    return this.webhooks.find({ where: { tableId }, order: { id: 'ASC' } });
  }

  /** The active webhooks of tables, by id. */
  activeOfTables(tableIds: number[]): Promise<TableWebhookEntity[]> {
    return this.webhooks.find({ where: { tableId: In(tableIds), active: true }, order: { id: 'ASC' } });
  }

  countOfTable(tableId: number): Promise<number> {
    return this.webhooks.count({ where: { tableId } });
  }

  find(id: number): Promise<TableWebhookEntity | null> {
    return this.webhooks.findOne({ where: { id } });
  }

  save(webhook: TableWebhookEntity): Promise<TableWebhookEntity> {
    return this.webhooks.save(webhook);
  }

  async delete(id: number): Promise<void> {
    await this.webhooks.delete({ id });
  }

  async setCounters(id: number, counters: { failedTriggers: number; active: boolean }): Promise<void> {
    await this.webhooks.update({ id }, counters);
  }

  // Call logs

  /** The calls of webhooks, newest first. */
  callsOf(webhookIds: number[]): Promise<TableWebhookCallEntity[]> {
    if (!webhookIds.length) return Promise.resolve([]);
    return this.calls.find({ where: { webhookId: In(webhookIds) }, order: { calledTime: 'DESC', id: 'DESC' } });
  }

  /** Logs a call: a retry of an event's batch updates its entry (Baserow's `update_or_create`); a first attempt adds one. */
  async logCall(call: Omit<TableWebhookCallEntity, 'id'>, retry: boolean): Promise<void> {
    const existing = retry ? await this.calls.findOne({ where: { webhookId: call.webhookId, eventId: call.eventId, eventType: call.eventType, batchId: call.batchId ?? IsNull() } }) : null;
    if (existing) await this.calls.save(Object.assign(existing, call));
    else await this.calls.insert(call);
  }

  /** Keeps a webhook's newest `keep` calls, in one statement. */
  async pruneCalls(webhookId: number, keep: number): Promise<void> {
    const sql = new Sql(this.dialect, { numbered: true });
    const id = sql.param(webhookId);
    await this.db.manager.query(
      `DELETE FROM "database_tablewebhookcall" WHERE "webhook_id" = ${id} AND "id" NOT IN (SELECT "id" FROM "database_tablewebhookcall" WHERE "webhook_id" = ${id} ORDER BY "called_time" DESC, "id" DESC LIMIT ${Math.max(0, Math.floor(keep))})`,
      sql.bindings(),
    );
  }

  // The outbox

  async queue(calls: QueuedCall[], dueAt: Date): Promise<void> {
    if (!calls.length) return;
    await this.deliveries.insert(calls.map((call) => ({ ...call, attempts: 0, dueAt, claimedUntil: null, claimedBy: null })));
  }

  /**
   * Claims up to `limit` calls that are due, for `claimer` until `until`: at most one per
   * webhook, the oldest of each, none of a webhook with a call claimed (in flight) or in
   * `busy`. On PostgreSQL the rows are locked with SKIP LOCKED, so instances claiming at once
   * never take the same call; the update re-checks that no one claimed it meanwhile.
   */
  async claim(limit: number, claimer: string, now: Date, until: Date, busy: number[]): Promise<WebhookDeliveryEntity[]> {
    // Most polls find nothing: known from one read, without a transaction (on SQLite, without the writer).
    if (!(await this.anyDue(now))) return [];
    return this.db.run(async () => {
      // Numbered placeholders: the time is named several times.
      const sql = new Sql(this.dialect, { numbered: true });
      const at = sql.param(now.toISOString());
      const free = (alias: string) => `(${alias}."claimed_until" IS NULL OR ${alias}."claimed_until" < ${at})`;
      const notBusy = busy.length ? ` AND d."webhook_id" NOT IN ${sql.list(busy)}` : '';
      const rows: { id: number }[] = await this.db.manager.query(
        `SELECT d."id" FROM "database_webhookdelivery" d
         WHERE d."due_at" <= ${at} AND ${free('d')}${notBusy}
           AND d."id" = (SELECT MIN(f."id") FROM "database_webhookdelivery" f WHERE f."webhook_id" = d."webhook_id" AND f."due_at" <= ${at} AND ${free('f')})
           AND NOT EXISTS (SELECT 1 FROM "database_webhookdelivery" e WHERE e."webhook_id" = d."webhook_id" AND NOT ${free('e')})
         ORDER BY d."id" LIMIT ${Math.max(1, Math.floor(limit))}${this.dialect.forUpdate ? ' FOR UPDATE SKIP LOCKED' : ''}`,
        sql.bindings(),
      );
      if (!rows.length) return [];
      const ids = rows.map((row) => Number(row.id));
      await this.deliveries
        .createQueryBuilder()
        .update()
        .set({ claimedUntil: until, claimedBy: claimer })
        .where({ id: In(ids) })
        .andWhere('("claimed_until" IS NULL OR "claimed_until" < :now)', { now: now.toISOString() })
        .execute();
      return this.deliveries.find({ where: { id: In(ids), claimedBy: claimer }, order: { id: 'ASC' } });
    });
  }

  private async anyDue(now: Date): Promise<boolean> {
    const sql = new Sql(this.dialect, { numbered: true });
    const at = sql.param(now.toISOString());
    const rows = await this.db.read(`SELECT 1 AS "due" FROM "database_webhookdelivery" WHERE "due_at" <= ${at} AND ("claimed_until" IS NULL OR "claimed_until" < ${at}) LIMIT 1`, sql.bindings());
    return rows.length > 0;
  }

  /** Whether the call is still claimed by `claimer` (its claim did not run out and go to another). */
  async stillClaimed(id: number, claimer: string): Promise<boolean> {
    return (await this.deliveries.count({ where: { id, claimedBy: claimer } })) > 0;
  }

  async done(id: number): Promise<void> {
    await this.deliveries.delete({ id });
  }

  /** Another attempt later, unclaimed. */
  async retryAt(id: number, attempts: number, dueAt: Date): Promise<void> {
    await this.deliveries.update({ id }, { attempts, dueAt, claimedUntil: null, claimedBy: null });
  }

  /** Drops the queued calls of a webhook (it was deleted or deactivated). */
  async dropQueued(webhookId: number): Promise<void> {
    await this.deliveries.delete({ webhookId });
  }

  /** Frees every claim (one instance on SQLite: a claim left by a crash is no one's). */
  async releaseClaims(): Promise<void> {
    await this.deliveries.update({ claimedBy: Not(IsNull()) }, { claimedUntil: null, claimedBy: null });
  }

  /** Calls waiting (metrics, tests). */
  pending(): Promise<number> {
    return this.deliveries.count();
  }
}
