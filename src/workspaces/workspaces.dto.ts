import { Field } from '../core/validation/field';
import { WORKSPACE_ROLE_CHOICES } from './workspace.entity';

export class WorkspaceNameDto {
  @Field({ kind: 'string', max: 165, example: 'My workspace' })
  name: string;
}

export class OrderWorkspacesDto {
  @Field({ kind: 'list', of: { kind: 'int' }, description: 'Workspace ids in the wanted order.' })
  workspaces: number[];
}

export class ListQueryDto {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Only items whose name or e-mail contains this.' })
  search?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Comma-separated `+attr` / `-attr`.' })
  sorts?: string;
}

export class UpdateWorkspaceUserDto {
  @Field({ kind: 'choice', choices: WORKSPACE_ROLE_CHOICES, description: 'ADMIN, MEMBER or an enterprise role uid (BUILDER is stored as MEMBER).' })
  permissions: string;
}

export class CreateInvitationDto {
  @Field({ kind: 'email' })
  email: string;

  @Field({ kind: 'choice', choices: WORKSPACE_ROLE_CHOICES, description: 'ADMIN, MEMBER or an enterprise role uid (BUILDER is stored as MEMBER).' })
  permissions: string;

  @Field({ kind: 'string', required: false, allowBlank: true, max: 250, default: '' })
  message: string;

  @Field({ kind: 'string', max: 1000, description: 'The address the invitation link starts with; the token is appended.' })
  base_url: string;
}
