import type { TrashService } from '../../trash/trash.service';
import type { UserEntity } from '../../users/user.entity';
import type { ActionType } from '../action-type';

/**
 * Action types of things that come to be and go to the trash (created, duplicated or deleted
 * tables, applications, workspaces...): one undoes or redoes by trashing the thing through its
 * service, the other by restoring it through the trash, as Baserow does.
 */
export function trashableActionTypes<P>(spec: {
  trashType: string;
  itemId: (params: P) => number;
  trash: (user: UserEntity, params: P) => Promise<unknown>;
  trashService: TrashService;
}): { appeared: Omit<ActionType<P>, 'type'>; disappeared: Omit<ActionType<P>, 'type'> } {
  const trash = async (params: P, { user }: { user: UserEntity }) => void (await spec.trash(user, params));
  const restore = async (params: P, { user }: { user: UserEntity }) => spec.trashService.restore(user, { trash_item_type: spec.trashType, trash_item_id: spec.itemId(params) });
  return { appeared: { undo: trash, redo: restore }, disappeared: { undo: restore, redo: trash } };
}

/** The ids of an order that are still there (one deleted since is left out). */
export function stillThere(ids: number[], live: number[]): number[] {
  const known = new Set(live);
  return ids.filter((id) => known.has(id));
}
