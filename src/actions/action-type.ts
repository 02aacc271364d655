import { Injectable } from '@nestjs/common';
import { TypeRegistry } from '../core/registry/type-registry';
import type { UserEntity } from '../users/user.entity';

/** What an undo or a redo is done for: the user who did the action (re-checked by the services). */
export interface ActionContext {
  user: UserEntity;
}

/**
 * One kind of action a person or a token does (Baserow's action type registry): it is done by
 * the service that records it (`ActionLog.record`), and knows how to undo and redo itself
 * through the same services, so history, the search index, messages and caches follow. Undo
 * and redo may answer changed params (e.g. the trash entry an undo made), which are kept for
 * the next redo or undo. A type absent from the registry is recorded for audit only.
 */
export interface ActionType<P = any> {
  readonly type: string;
  undo(params: P, ctx: ActionContext): Promise<P | void>;
  redo(params: P, ctx: ActionContext): Promise<P | void>;
}

@Injectable()
export class ActionTypeRegistry extends TypeRegistry<ActionType> {
  protected readonly kind = 'Action type';
}

/**
 * The scopes actions are undone in (Baserow's action scope registry): the web client asks to
 * undo the newest action in the scopes it shows (`{"root": true, "workspace": 1, "table": 3…}`).
 */
export const ActionScopes = {
  root: (): string => 'root',
  workspace: (id: number): string => `workspace${id}`,
  application: (id: number): string => `application${id}`,
  table: (id: number): string => `table${id}`,
  view: (id: number): string => `view${id}`,
  /** Baserow enterprise's `teams_in_workspace`: the team actions of a workspace. */
  teams: (workspaceId: number): string => `workspace${workspaceId}teams_in_workspace`,
};
