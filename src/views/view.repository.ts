import { Injectable } from '@nestjs/common';
import { ApplicationEntity } from '../applications/application.entity';
import { UnitOfWork } from '../core/database/unit-of-work';
import { TableEntity } from '../database/table.entity';
import { WorkspaceEntity } from '../workspaces/workspace.entity';
import { ViewEntity, ViewFieldOptionsEntity } from './view.entity';

/** Views and their field options. */
@Injectable()
export class ViewRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get views() {
    return this.db.manager.getRepository(ViewEntity);
  }

  private get options() {
    return this.db.manager.getRepository(ViewFieldOptionsEntity);
  }

  /** A live view whose table, database and workspace are live too. */
  async findLive(id: number): Promise<ViewEntity | null> {
    return this.live().andWhere('v.id = :id', { id }).getOne();
  }

  /** A live view (of a live table, database and workspace) by its slug. */
  async findLiveBySlug(slug: string): Promise<ViewEntity | null> {
    return this.live().andWhere('v.slug = :slug', { slug }).getOne();
  }

  /** A live calendar view by its iCal feed slug. */
  async findLiveByIcalSlug(icalSlug: string): Promise<ViewEntity | null> {
    return this.live().andWhere('v.ical_slug = :icalSlug', { icalSlug }).getOne();
  }

  async icalSlugExists(icalSlug: string): Promise<boolean> {
    return (await this.views.count({ where: { icalSlug } })) > 0;
  }

  /** The live public views of a live table (the real-time fan-out to shared views). */
  publicOfTable(tableId: number): Promise<ViewEntity[]> {
    return this.live().andWhere('v.table_id = :tableId AND v.public = :t', { tableId, t: true }).orderBy('v.id', 'ASC').getMany();
  }

  private live() {
    return this.views
      .createQueryBuilder('v')
      .innerJoin(TableEntity, 't', 't.id = v.table_id')
      .innerJoin(ApplicationEntity, 'a', 'a.id = t.database_id')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = a.workspace_id')
      .where('v.trashed = :f AND t.trashed = :f AND a.trashed = :f AND w.trashed = :f', { f: false });
  }

  /** Live views of a table by order then id, optionally of one type, at most `limit`. */
  ofTable(tableId: number, options: { type?: string; limit?: number } = {}): Promise<ViewEntity[]> {
    const query = this.views
      .createQueryBuilder('v')
      .where('v.table_id = :tableId AND v.trashed = :f', { tableId, f: false })
      .orderBy('v.order', 'ASC')
      .addOrderBy('v.id', 'ASC');
    if (options.type !== undefined) query.andWhere('v.type = :type', { type: options.type });
    if (options.limit !== undefined) query.take(options.limit);
    return query.getMany();
  }

  /** A view, trashed or not (the trash's lookups). */
  findAny(id: number): Promise<ViewEntity | null> {
    return this.views.findOneBy({ id });
  }

  /** The personal views (live or trashed) a user owns. */
  personalOf(userId: number): Promise<ViewEntity[]> {
    return this.views.find({ where: { ownershipType: 'personal', ownedById: userId } });
  }

  async delete(id: number): Promise<void> {
    await this.views.delete({ id });
  }

  async create(values: Partial<ViewEntity>): Promise<ViewEntity> {
    return this.views.save(this.views.create(values));
  }

  async update(id: number, values: Partial<ViewEntity>): Promise<void> {
    await this.views.update(id, values);
  }

  /** Counts a change of the view's filters, groups, sorts or group-bys (inside the writer's transaction). */
  async bumpVersion(viewIds: number[]): Promise<void> {
    if (!viewIds.length) return;
    await this.views
      .createQueryBuilder()
      .update(ViewEntity)
      .set({ version: () => 'version + 1' })
      .whereInIds(viewIds)
      .execute();
  }

  async maxOrder(tableId: number): Promise<number> {
    const row = await this.views.createQueryBuilder('v').select('MAX(v.order)', 'max').where('v.table_id = :tableId', { tableId }).getRawOne();
    return Number(row?.max ?? 0);
  }

  async slugExists(slug: string): Promise<boolean> {
    return (await this.views.count({ where: { slug } })) > 0;
  }

  /** Stored field options of a view, by field id. */
  async fieldOptions(viewId: number): Promise<Map<number, ViewFieldOptionsEntity>> {
    const rows = await this.options.find({ where: { viewId } });
    return new Map(rows.map((row) => [row.fieldId, row]));
  }

  async createFieldOptions(viewId: number, entries: { fieldId: number; options: Record<string, unknown> }[]): Promise<void> {
    if (!entries.length) return;
    // Two requests may create the same missing options at once: the second one's rows are skipped.
    await this.options
      .createQueryBuilder()
      .insert()
      .into(ViewFieldOptionsEntity)
      .values(entries.map((e) => ({ viewId, fieldId: e.fieldId, options: e.options as Record<string, any> })))
      .orIgnore()
      .execute();
  }

  async updateFieldOptions(id: number, options: Record<string, unknown>): Promise<void> {
    await this.options.update(id, { options: options as Record<string, any> });
  }
}
