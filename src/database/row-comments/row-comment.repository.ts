import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { ApplicationEntity } from '../../applications/application.entity';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { UserEntity } from '../../users/user.entity';
import { WorkspaceUserEntity } from '../../workspaces/workspace.entity';
import { DEFAULT_NOTIFICATION_MODE, NotificationMode, RowCommentEntity, RowCommentsNotificationModeEntity } from './row-comment.entity';

/** The SQL of row comments and notification modes. */
@Injectable()
export class RowCommentRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get comments() {
    return this.db.manager.getRepository(RowCommentEntity);
  }

  find(id: number): Promise<RowCommentEntity | null> {
    return this.comments.findOneBy({ id });
  }

  /** A page of a row's comments, newest first, trashed ones included (Baserow lists them without their message). */
  async page(tableId: number, rowId: number, limit: number, offset: number): Promise<{ count: number; comments: RowCommentEntity[] }> {
    const where = { tableId, rowId };
    const count = await this.comments.countBy(where);
    if (offset >= count) return { count, comments: [] };
    const comments = await this.comments.find({ where, order: { createdOn: 'DESC', id: 'DESC' }, take: limit, skip: offset });
    return { count, comments };
  }

  create(values: Pick<RowCommentEntity, 'tableId' | 'rowId' | 'userId' | 'message'>): Promise<RowCommentEntity> {
    const now = new Date();
    return this.comments.save(this.comments.create({ ...values, createdOn: now, updatedOn: now, trashed: false }));
  }

  /** Writes the given columns of a comment. */
  async update(id: number, values: Partial<Pick<RowCommentEntity, 'message' | 'updatedOn' | 'trashed'>>): Promise<void> {
    await this.comments.update({ id }, values as Parameters<typeof this.comments.update>[1]);
  }

  /** Removes a comment for good. */
  async delete(id: number): Promise<void> {
    await this.comments.delete({ id });
  }

  /** Removes every comment and notification mode of the rows for good. */
  async deleteOfRows(tableId: number, rowIds: number[]): Promise<void> {
    if (!rowIds.length) return;
    await this.comments.createQueryBuilder().delete().where('table_id = :tableId AND row_id IN (:...rowIds)', { tableId, rowIds }).execute();
    await this.db.manager
      .getRepository(RowCommentsNotificationModeEntity)
      .createQueryBuilder()
      .delete()
      .where('table_id = :tableId AND row_id IN (:...rowIds)', { tableId, rowIds })
      .execute();
  }

  /** First names of users by id (authors whose accounts are gone are left out). */
  async firstNames(userIds: number[]): Promise<Map<number, string>> {
    const ids = [...new Set(userIds)];
    if (!ids.length) return new Map();
    const users = await this.db.manager.getRepository(UserEntity).createQueryBuilder('u').select(['u.id', 'u.firstName']).where('u.id IN (:...ids)', { ids }).getMany();
    return new Map(users.map((user) => [user.id, user.firstName]));
  }

  /** How many live (not trashed) comments each of the rows has; rows without any are left out. */
  async countsOfRows(tableId: number, rowIds: number[]): Promise<Map<number, number>> {
    const rows = await this.comments
      .createQueryBuilder('c')
      .select('c.row_id', 'row_id')
      .addSelect('COUNT(*)', 'count')
      .where('c.table_id = :tableId AND c.row_id IN (:...rowIds) AND c.trashed = :f', { tableId, rowIds, f: false })
      .groupBy('c.row_id')
      .getRawMany<{ row_id: number | string; count: number | string }>();
    return new Map(rows.map((row) => [Number(row.row_id), Number(row.count)]));
  }

  /** The user's modes of the rows that differ from the default. */
  async modesOfRows(tableId: number, rowIds: number[], userId: number): Promise<Map<number, NotificationMode>> {
    const rows = await this.db.manager
      .getRepository(RowCommentsNotificationModeEntity)
      .createQueryBuilder('m')
      .select(['m.rowId', 'm.mode'])
      .where('m.table_id = :tableId AND m.row_id IN (:...rowIds) AND m.user_id = :userId AND m.mode <> :default', { tableId, rowIds, userId, default: DEFAULT_NOTIFICATION_MODE })
      .getMany();
    return new Map(rows.map((row) => [row.rowId, row.mode]));
  }

  /** Sets the user's mode of a row in one statement (concurrent requests cannot both insert). */
  async setMode(tableId: number, rowId: number, userId: number, mode: NotificationMode): Promise<void> {
    await this.db.manager
      .createQueryBuilder()
      .insert()
      .into(RowCommentsNotificationModeEntity)
      .values({ tableId, rowId, userId, mode })
      .orUpdate(['mode'], ['table_id', 'row_id', 'user_id'])
      .execute();
  }

  /** Whether the user chose a mode for the row (any). */
  async hasMode(tableId: number, rowId: number, userId: number): Promise<boolean> {
    return (await this.db.manager.getRepository(RowCommentsNotificationModeEntity).countBy({ tableId, rowId, userId })) > 0;
  }

  /** Members of the workspace who hear of every comment on the row (mode `all`), by id. */
  async subscribers(tableId: number, rowId: number, workspaceId: number): Promise<number[]> {
    const rows = await this.db.manager
      .getRepository(RowCommentsNotificationModeEntity)
      .createQueryBuilder('m')
      .select('m.user_id', 'user_id')
      .innerJoin(WorkspaceUserEntity, 'wu', 'wu.user_id = m.user_id AND wu.workspace_id = :workspaceId', { workspaceId })
      .where('m.table_id = :tableId AND m.row_id = :rowId AND m.mode = :all', { tableId, rowId, all: 'all' })
      .orderBy('m.user_id', 'ASC')
      .getRawMany<{ user_id: number | string }>();
    return rows.map((row) => Number(row.user_id));
  }

  /** Which of these users are members of the workspace. */
  async members(workspaceId: number, userIds: number[]): Promise<number[]> {
    if (!userIds.length) return [];
    const rows = await this.db.manager.getRepository(WorkspaceUserEntity).find({ where: { workspaceId, userId: In(userIds) }, select: { userId: true } });
    const found = new Set(rows.map((row) => row.userId));
    return userIds.filter((id) => found.has(id));
  }

  async databaseName(databaseId: number): Promise<string> {
    return (await this.db.manager.getRepository(ApplicationEntity).findOne({ where: { id: databaseId }, select: { id: true, name: true } }))?.name ?? '';
  }
}
