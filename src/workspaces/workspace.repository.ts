import { Injectable } from '@nestjs/common';
import { In, Not } from 'typeorm';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApplicationEntity } from '../applications/application.entity';
import { TableEntity } from '../database/table.entity';
import { UserEntity } from '../users/user.entity';
import { WorkspaceEntity, WorkspaceInvitationEntity, WorkspaceRole, WorkspaceUserEntity } from './workspace.entity';

/** A membership joined with its user, as member lists and serializers need it. */
export interface MemberRow {
  membership: WorkspaceUserEntity;
  user: Pick<UserEntity, 'id' | 'email' | 'firstName' | 'deletionScheduledAt'>;
}

@Injectable()
export class WorkspaceRepository {
  constructor(private readonly db: UnitOfWork) {}

  private get workspaces() {
    return this.db.manager.getRepository(WorkspaceEntity);
  }

  private get memberships() {
    return this.db.manager.getRepository(WorkspaceUserEntity);
  }

  private get invitations() {
    return this.db.manager.getRepository(WorkspaceInvitationEntity);
  }

  /** A workspace that is not trashed. */
  findWorkspace(id: number): Promise<WorkspaceEntity | null> {
    return this.workspaces.findOneBy({ id, trashed: false });
  }

  /** A workspace, trashed or not (the trash's lookups). */
  findAnyWorkspace(id: number): Promise<WorkspaceEntity | null> {
    return this.workspaces.findOneBy({ id });
  }

  findWorkspaces(ids: number[]): Promise<WorkspaceEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.workspaces.createQueryBuilder('w').where('w.id IN (:...ids) AND w.trashed = :f', { ids, f: false }).getMany();
  }

  createWorkspace(name: string): Promise<WorkspaceEntity> {
    return this.workspaces.save(this.workspaces.create({ name, createdOn: new Date(), trashed: false }));
  }

  updateWorkspace(id: number, values: Partial<WorkspaceEntity>): Promise<unknown> {
    return this.workspaces.update({ id }, values);
  }

  deleteWorkspace(id: number): Promise<unknown> {
    return this.workspaces.delete({ id });
  }

  findMembership(workspaceId: number, userId: number): Promise<WorkspaceUserEntity | null> {
    return this.memberships.findOneBy({ workspaceId, userId });
  }

  findMembershipById(id: number): Promise<WorkspaceUserEntity | null> {
    return this.memberships.findOneBy({ id });
  }

  /** The user's memberships of workspaces that are not trashed, in the user's own order. */
  async membershipsOfUser(userId: number): Promise<{ membership: WorkspaceUserEntity; workspace: WorkspaceEntity }[]> {
    const rows = await this.memberships
      .createQueryBuilder('wu')
      .innerJoinAndMapOne('wu.workspace', WorkspaceEntity, 'w', 'w.id = wu.workspace_id')
      .where('wu.user_id = :userId AND w.trashed = :f', { userId, f: false })
      .orderBy('wu.order', 'ASC')
      .addOrderBy('w.id', 'ASC')
      .getMany();
    return rows.map((row) => ({ membership: row, workspace: (row as WorkspaceUserEntity & { workspace: WorkspaceEntity }).workspace }));
  }

  /** Members with their users, ordered by membership id. */
  async members(workspaceIds: number[]): Promise<MemberRow[]> {
    if (!workspaceIds.length) return [];
    const rows = await this.memberships
      .createQueryBuilder('wu')
      .innerJoinAndMapOne('wu.user', UserEntity, 'u', 'u.id = wu.user_id')
      .where('wu.workspace_id IN (:...workspaceIds)', { workspaceIds })
      .orderBy('wu.id', 'ASC')
      .getMany();
    return rows.map((row) => ({ membership: row, user: (row as WorkspaceUserEntity & { user: UserEntity }).user }));
  }

  /** Every workspace the user is a member of, trashed ones included. */
  async workspaceIdsOfUser(userId: number): Promise<number[]> {
    const rows = await this.memberships.find({ where: { userId }, select: { workspaceId: true } });
    return rows.map((row) => row.workspaceId);
  }

  async memberUserIds(workspaceId: number): Promise<number[]> {
    const rows = await this.memberships.find({ where: { workspaceId }, select: { userId: true } });
    return rows.map((row) => row.userId);
  }

  async maxOrderOfUser(userId: number): Promise<number> {
    const row = await this.memberships
      .createQueryBuilder('wu')
      .select('MAX(wu.order)', 'max')
      .where('wu.user_id = :userId', { userId })
      .getRawOne<{ max: number | string | null }>();
    return Number(row?.max ?? 0);
  }

  addMember(workspaceId: number, userId: number, permissions: WorkspaceRole, order: number): Promise<WorkspaceUserEntity> {
    return this.memberships.save(this.memberships.create({ workspaceId, userId, permissions, order, createdOn: new Date() }));
  }

  updateMembership(id: number, values: Partial<WorkspaceUserEntity>): Promise<unknown> {
    return this.memberships.update({ id }, values);
  }

  deleteMembership(id: number): Promise<unknown> {
    return this.memberships.delete({ id });
  }

  /** The workspace's admins, but `exceptUserId` when given. */
  countAdmins(workspaceId: number, exceptUserId?: number): Promise<number> {
    return this.memberships.countBy({ workspaceId, permissions: 'ADMIN', ...(exceptUserId !== undefined ? { userId: Not(exceptUserId) } : {}) });
  }

  countMembers(workspaceId: number): Promise<number> {
    return this.memberships.countBy({ workspaceId });
  }

  /** Ids of the tables of the workspace's databases (for discarding members' table pages). */
  async tableIdsOfWorkspace(workspaceId: number): Promise<number[]> {
    const rows = await this.db.manager
      .createQueryBuilder()
      .select('t.id', 'id')
      .from(TableEntity, 't')
      .innerJoin(ApplicationEntity, 'a', 'a.id = t.database_id')
      .where('a.workspace_id = :workspaceId', { workspaceId })
      .getRawMany<{ id: number }>();
    return rows.map((row) => Number(row.id));
  }

  /** First names of users by id. */
  async userNames(ids: number[]): Promise<Map<number, string>> {
    return new Map((await this.usersById(ids)).map((u) => [u.id, u.firstName]));
  }

  /** E-mail addresses of users by id. */
  async userEmails(ids: number[]): Promise<Map<number, string>> {
    return new Map((await this.usersById(ids)).map((u) => [u.id, u.email]));
  }

  private async usersById(ids: number[]): Promise<Pick<UserEntity, 'id' | 'firstName' | 'email'>[]> {
    if (!ids.length) return [];
    return this.db.manager.getRepository(UserEntity).find({ where: { id: In([...new Set(ids)]) }, select: { id: true, firstName: true, email: true } });
  }

  /** The account of an e-mail address, if any. */
  userByEmail(email: string): Promise<Pick<UserEntity, 'id'> | null> {
    return this.db.manager.getRepository(UserEntity).findOne({ where: { email }, select: { id: true } });
  }

  /** Which of these e-mail addresses belong to an account. */
  async emailsWithAccounts(emails: string[]): Promise<Set<string>> {
    if (!emails.length) return new Set();
    const users = await this.db.manager.getRepository(UserEntity).find({ where: { email: In([...new Set(emails)]) }, select: { id: true, email: true } });
    return new Set(users.map((u) => u.email));
  }

  // Invitations

  findInvitation(id: number): Promise<WorkspaceInvitationEntity | null> {
    return this.invitations.findOneBy({ id });
  }

  findInvitationByEmail(workspaceId: number, email: string): Promise<WorkspaceInvitationEntity | null> {
    return this.invitations.findOneBy({ workspaceId, email });
  }

  invitationsOfWorkspace(workspaceId: number): Promise<WorkspaceInvitationEntity[]> {
    return this.invitations.find({ where: { workspaceId }, order: { id: 'ASC' } });
  }

  /** Pending invitations addressed to an e-mail, in workspaces that are not trashed. */
  async invitationsForEmail(email: string): Promise<WorkspaceInvitationEntity[]> {
    return this.invitations
      .createQueryBuilder('i')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = i.workspace_id')
      .where('i.email = :email AND w.trashed = :f', { email, f: false })
      .orderBy('i.id', 'ASC')
      .getMany();
  }

  saveInvitation(invitation: Partial<WorkspaceInvitationEntity>): Promise<WorkspaceInvitationEntity> {
    return this.invitations.save(this.invitations.create(invitation));
  }

  deleteInvitation(id: number): Promise<unknown> {
    return this.invitations.delete({ id });
  }
}
