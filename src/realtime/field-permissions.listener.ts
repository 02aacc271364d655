import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DomainEvent } from '../core/events/domain-events';
import { PermissionService, TableOperations as T } from '../permissions';
import { Broadcaster } from './broadcaster';
import { encode } from './delivery';
import { RealtimeRepository } from './realtime.repository';

/**
 * Baserow enterprise's `field_permissions_updated`, after commit, to the workspace's members
 * (those who may read the field: nothing about a field goes to someone who may not), every
 * socket but the one that made the change.
 */
@Injectable()
export class FieldPermissionsListener {
  constructor(
    private readonly broadcaster: Broadcaster,
    private readonly repo: RealtimeRepository,
    private readonly permissions: PermissionService,
  ) {}

  @OnEvent('field_permissions.updated')
  async updated(event: DomainEvent<'field_permissions.updated'>): Promise<void> {
    const { workspaceId, databaseId, tableId, fieldId, role, allowInForms } = event.payload;
    const members = await this.repo.memberUserIds([workspaceId]);
    const audience = await this.permissions.audience(members, T.readField, { workspaceId, applicationId: databaseId, tableId });
    if (!audience.length) return;
    const message = { type: 'field_permissions_updated', workspace_id: workspaceId, field_id: fieldId, role, allow_in_forms: allowInForms };
    await this.broadcaster.send({ kind: 'users', userIds: audience, message: encode(message), exclude: event.actor.webSocketId });
  }
}
