import { Inject, Injectable } from '@nestjs/common';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { toApiDateTime } from '../core/database/columns';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError } from '../core/errors/api-error';
import { Mailer } from '../core/mail/mailer';
import { Signer } from '../core/signing/signer';
import { OperationType, WorkspaceOperations as W } from '../permissions';
import { NotificationsService } from '../notifications/notifications.service';
import type { UserEntity } from '../users/user.entity';
import { normalizeEmail } from '../users/user.serializer';
import { storedWorkspaceRole, WorkspaceInvitationEntity } from './workspace.entity';
import { WorkspaceRepository } from './workspace.repository';
import {
  serializeInvitation,
  UserWorkspaceInvitationJson,
  WorkspaceInvitationJson,
  WorkspaceItemJson,
} from './workspace.serializer';
import { sortBy, WorkspacesService } from './workspaces.service';

const INVITATION = 'workspace_invitation';

export const InvitationErrors = {
  doesNotExist: () =>
    new ApiError('ERROR_GROUP_INVITATION_DOES_NOT_EXIST', 404, 'The requested group invitation does not exist.'),
  emailMismatch: () =>
    new ApiError('ERROR_GROUP_INVITATION_EMAIL_MISMATCH', 400, 'Your email address does not match with the invitation.'),
  userAlreadyMember: () =>
    new ApiError('ERROR_GROUP_USER_ALREADY_EXISTS', 400, 'The user is already a member of the group.'),
  tooManyPending: () =>
    new ApiError(
      'ERROR_MAX_NUMBER_OF_PENDING_WORKSPACE_INVITES_REACHED',
      400,
      'The maximum number of pending invites for this workspace has been reached. ' +
        'Please wait for some invitees to accept the invite or cancel the existing ones.',
    ),
  hostnameNotAllowed: () =>
    new ApiError('ERROR_HOSTNAME_IS_NOT_ALLOWED', 400, 'Only the hostname of the web frontend is allowed.'),
};

/** The base URL of a link sent by mail must point at the web client's host (PUBLIC_WEB_FRONTEND_URL, default PUBLIC_URL). */
export function checkBaseUrl(baseUrl: string, webFrontendUrl: string): void {
  try {
    if (new URL(baseUrl).hostname !== new URL(webFrontendUrl).hostname) throw new Error();
  } catch {
    throw InvitationErrors.hostnameNotAllowed();
  }
}

@Injectable()
export class InvitationsService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: WorkspaceRepository,
    private readonly workspaces: WorkspacesService,
    private readonly signer: Signer,
    private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly notifications: NotificationsService,
    private readonly actions: ActionLog,
  ) {}

  tokenOf(invitation: WorkspaceInvitationEntity): string {
    return this.signer.sign(INVITATION, { invitation_id: invitation.id });
  }

  async list(user: UserEntity, workspaceId: number, search?: string, sorts?: string): Promise<WorkspaceInvitationJson[]> {
    await this.workspaces.require(workspaceId, user.id, W.listInvitations);
    let invitations = (await this.repo.invitationsOfWorkspace(workspaceId)).map(serializeInvitation);
    if (search) {
      const needle = search.toLowerCase();
      invitations = invitations.filter((i) => i.email.includes(needle) || i.message.toLowerCase().includes(needle));
    }
    return sortBy(invitations, sorts, ['email', 'message'], (i, attr) => (i as any)[attr]);
  }

  /** Invites an e-mail address; inviting the same address again updates the pending invitation. */
  async create(
    user: UserEntity,
    workspaceId: number,
    input: { email: string; permissions: string; message: string; base_url: string },
  ): Promise<WorkspaceInvitationJson> {
    const { invitation, workspaceName } = await this.db.run(async () => {
      const workspace = await this.workspaces.require(workspaceId, user.id, W.createInvitation);
      const email = normalizeEmail(input.email);
      const members = await this.repo.members([workspaceId]);
      if (members.some((m) => m.user.email === email)) throw InvitationErrors.userAlreadyMember();
      const existing = await this.repo.findInvitationByEmail(workspaceId, email);
      const max = this.config.maxPendingWorkspaceInvites;
      if (!existing && max > 0 && (await this.repo.invitationsOfWorkspace(workspaceId)).length >= max) {
        throw InvitationErrors.tooManyPending();
      }
      // Baserow checks the link's host last, when it sends the mail (the transaction rolls back).
      checkBaseUrl(input.base_url, this.config.webFrontendUrl);
      const saved = await this.repo.saveInvitation({
        ...(existing ?? { createdOn: new Date() }),
        workspaceId,
        invitedById: user.id,
        email,
        permissions: storedWorkspaceRole(input.permissions),
        message: input.message,
      });
      await this.tellInvitee(saved, workspace.name, !existing);
      this.actions.record('create_group_invitation', { email, permissions: input.permissions }, { scope: ActionScopes.root(), workspaceId });
      return { invitation: saved, workspaceName: workspace.name };
    });
    const link = `${input.base_url.replace(/\/+$/, '')}/${this.tokenOf(invitation)}`;
    await this.mailer.send({
      to: invitation.email,
      subject: `${user.firstName} invited you to ${workspaceName}`,
      text: `${user.firstName} invited you to collaborate on the workspace "${workspaceName}".\n${invitation.message}\n\nAccept the invitation: ${link}\n`,
    });
    return serializeInvitation(invitation);
  }

  private async adminInvitation(user: UserEntity, invitationId: number, operation: OperationType): Promise<WorkspaceInvitationEntity> {
    const invitation = await this.repo.findInvitation(invitationId);
    if (!invitation) throw InvitationErrors.doesNotExist();
    await this.workspaces.require(invitation.workspaceId, user.id, operation);
    return invitation;
  }

  async get(user: UserEntity, invitationId: number): Promise<WorkspaceInvitationJson> {
    return serializeInvitation(await this.adminInvitation(user, invitationId, W.readInvitation));
  }

  async update(user: UserEntity, invitationId: number, choice: string): Promise<WorkspaceInvitationJson> {
    const permissions = storedWorkspaceRole(choice);
    return this.db.run(async () => {
      const invitation = await this.adminInvitation(user, invitationId, W.updateInvitation);
      this.actions.record(
        'update_group_invitation_permissions',
        { invitation_id: invitationId, email: invitation.email, permissions: choice, original_permissions: invitation.permissions },
        { scope: ActionScopes.root(), workspaceId: invitation.workspaceId },
      );
      return serializeInvitation(await this.repo.saveInvitation({ ...invitation, permissions }));
    });
  }

  async delete(user: UserEntity, invitationId: number): Promise<void> {
    await this.db.run(async () => {
      const invitation = await this.adminInvitation(user, invitationId, W.deleteInvitation);
      await this.repo.deleteInvitation(invitationId);
      this.actions.record(
        'delete_group_invitation',
        { invitation_id: invitationId, email: invitation.email, permissions: invitation.permissions },
        { scope: ActionScopes.root(), workspaceId: invitation.workspaceId },
      );
    });
  }

  /** The invitation addressed to this user, or 404 / 400 on e-mail mismatch. */
  private async ownInvitation(user: UserEntity, invitationId: number): Promise<WorkspaceInvitationEntity> {
    const invitation = await this.repo.findInvitation(invitationId);
    if (!invitation || !(await this.repo.findWorkspace(invitation.workspaceId))) throw InvitationErrors.doesNotExist();
    if (invitation.email !== user.email) throw InvitationErrors.emailMismatch();
    return invitation;
  }

  /**
   * An invitation to an e-mail address that has an account: the invitee's sockets hear of it
   * (`workspace_invitation_updated_or_created`), and a new one is a user-level notification.
   */
  private async tellInvitee(invitation: WorkspaceInvitationEntity, workspaceName: string, created: boolean): Promise<void> {
    const invitee = await this.repo.userByEmail(invitation.email);
    if (!invitee) return;
    const [json] = await this.describe([invitation]);
    this.db.record('workspace_invitation.updated_or_created', { userId: invitee.id, invitation: { ...json } });
    if (!created) return;
    await this.notifications.notifyUsers({
      userIds: [invitee.id],
      type: 'workspace_invitation_created',
      data: invitationData(invitation, workspaceName),
      workspaceId: null,
      senderId: invitation.invitedById,
    });
  }

  /**
   * The invitee answered (accepted or rejected): their sockets hear of it, their notification of
   * the invitation is marked read, and the inviter is notified. Before the invitation is deleted.
   */
  private async answered(user: UserEntity, invitation: WorkspaceInvitationEntity, answer: 'accepted' | 'rejected'): Promise<void> {
    const [json] = await this.describe([invitation]);
    this.db.record(`workspace_invitation.${answer}`, { userId: user.id, invitation: { ...json } });
    await this.notifications.markInvitationNotificationRead(user.id, invitation.id);
    const workspace = await this.repo.findWorkspace(invitation.workspaceId);
    await this.notifications.notifyUsers({
      userIds: [invitation.invitedById],
      type: `workspace_invitation_${answer}`,
      data: invitationData(invitation, workspace?.name ?? ''),
      workspaceId: invitation.workspaceId,
      senderId: user.id,
    });
  }

  /** Joins the workspace with the invited role; the invitation is used up. */
  async accept(user: UserEntity, invitationId: number): Promise<WorkspaceItemJson> {
    const workspaceId = await this.db.run(async () => {
      const invitation = await this.ownInvitation(user, invitationId);
      await this.recordAnswer('accept_group_invitation', invitation);
      await this.join(user, invitation);
      return invitation.workspaceId;
    });
    return this.workspaces.item(workspaceId, user.id);
  }

  /**
   * Adds the invitee to the workspace (already inside a unit of work). An invitee who is a
   * member already gets the invited role, as Baserow does, unless that would demote the
   * workspace's last admin.
   */
  async join(user: UserEntity, invitation: WorkspaceInvitationEntity): Promise<void> {
    await this.answered(user, invitation, 'accepted');
    const membership = await this.repo.findMembership(invitation.workspaceId, user.id);
    if (!membership) {
      const added = await this.workspaces.addMember(invitation.workspaceId, user.id, invitation.permissions);
      this.db.record('workspace_user.added', { workspaceId: invitation.workspaceId, workspaceUserId: added.id });
    } else if (membership.permissions !== invitation.permissions) {
      const demotesLastAdmin = membership.permissions === 'ADMIN' && (await this.repo.countAdmins(invitation.workspaceId)) <= 1;
      if (!demotesLastAdmin) {
        await this.repo.updateMembership(membership.id, { permissions: invitation.permissions });
        this.db.record('workspace_user.updated', { workspaceId: invitation.workspaceId, workspaceUserId: membership.id });
        this.db.record('permissions.updated', { workspaceId: invitation.workspaceId, userIds: [user.id], teamIds: [] });
      }
    }
    await this.repo.deleteInvitation(invitation.id);
  }

  async reject(user: UserEntity, invitationId: number): Promise<void> {
    await this.db.run(async () => {
      const invitation = await this.ownInvitation(user, invitationId);
      await this.recordAnswer('reject_group_invitation', invitation);
      await this.answered(user, invitation, 'rejected');
      await this.repo.deleteInvitation(invitation.id);
    });
  }

  /** An invitee's answer, as the audit log reads it (sign-up through an invitation records none, as in Baserow). */
  private async recordAnswer(type: 'accept_group_invitation' | 'reject_group_invitation', invitation: WorkspaceInvitationEntity): Promise<void> {
    const sender = (await this.repo.userEmails([invitation.invitedById])).get(invitation.invitedById) ?? '';
    this.actions.record(type, { invitation_id: invitation.id, sender, permissions: invitation.permissions }, { scope: ActionScopes.root(), workspaceId: invitation.workspaceId });
  }

  /** The invitation a signed token points at (400 on a bad signature, 404 when it is gone). */
  async byToken(token: string): Promise<WorkspaceInvitationEntity> {
    const { invitation_id } = this.signer.unsign<{ invitation_id: number }>(INVITATION, token);
    const invitation = await this.repo.findInvitation(Number(invitation_id));
    if (!invitation || !(await this.repo.findWorkspace(invitation.workspaceId))) throw InvitationErrors.doesNotExist();
    return invitation;
  }

  async publicView(token: string): Promise<UserWorkspaceInvitationJson> {
    return (await this.describe([await this.byToken(token)]))[0];
  }

  /** Invitations as the invitee sees them: inviter's name, workspace name, whether the e-mail has an account. */
  async describe(invitations: WorkspaceInvitationEntity[]): Promise<UserWorkspaceInvitationJson[]> {
    const workspaces = new Map((await this.repo.findWorkspaces([...new Set(invitations.map((i) => i.workspaceId))])).map((w) => [w.id, w]));
    const inviters = await this.repo.userNames(invitations.map((i) => i.invitedById));
    const existing = await this.repo.emailsWithAccounts(invitations.map((i) => i.email));
    return invitations.map((invitation) => ({
      id: invitation.id,
      invited_by: inviters.get(invitation.invitedById) ?? '',
      workspace: workspaces.get(invitation.workspaceId)?.name ?? '',
      email: invitation.email,
      message: invitation.message,
      created_on: toApiDateTime(invitation.createdOn)!,
      email_exists: existing.has(invitation.email),
    }));
  }

  async forUser(user: UserEntity): Promise<UserWorkspaceInvitationJson[]> {
    return this.describe(await this.repo.invitationsForEmail(user.email));
  }
}

/** The data of the invitation notifications (Baserow's InvitationNotificationData). */
function invitationData(invitation: WorkspaceInvitationEntity, workspaceName: string): Record<string, unknown> {
  return { invitation_id: invitation.id, invited_to_workspace_id: invitation.workspaceId, invited_to_workspace_name: workspaceName };
}
