import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Instance-wide settings: a single row with id 1. */
@Entity('settings')
export class SettingsEntity {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'allow_new_signups', type: 'boolean', default: true })
  allowNewSignups: boolean;

  @Column({ name: 'allow_signups_via_workspace_invitations', type: 'boolean', default: true })
  allowSignupsViaWorkspaceInvitations: boolean;

  @Column({ name: 'allow_reset_password', type: 'boolean', default: true })
  allowResetPassword: boolean;

  @Column({ name: 'allow_global_workspace_creation', type: 'boolean', default: true })
  allowGlobalWorkspaceCreation: boolean;

  @Column({ name: 'instance_id', type: 'varchar', length: 64 })
  instanceId: string;
}
