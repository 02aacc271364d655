import { OperationType, ViewOperations as V } from '../permissions';
import type { ViewEntity } from './view.entity';

/** Baserow's view ownership types: `collaborative` (every member) and `personal` (its owner only). */
export const OWNERSHIP_TYPES = ['collaborative', 'personal'] as const;
export const PERSONAL = 'personal';

export function isPersonal(view: Pick<ViewEntity, 'ownershipType'>): boolean {
  return view.ownershipType === PERSONAL;
}

/**
 * What the owner of a personal view may do on it with only the right to create and use personal
 * views (Baserow premium's `view_ownership` permission manager): working with the view, never
 * exposing it (sharing it publicly needs the operation itself, as on a collaborative view).
 */
const ALLOWED_ON_OWN_PERSONAL_VIEW = new Set<string>(
  [
    V.createSort, V.readSort, V.updateSort, V.deleteSort, V.listSorts, V.updateFieldOptions, V.readFieldOptions, V.read, V.update,
    V.delete, V.duplicate, V.restore, V.createFilter, V.readFilter, V.updateFilter, V.deleteFilter, V.listFilters, V.createGroupBy,
    V.readGroupBy, V.updateGroupBy, V.deleteGroupBy, V.listGroupBys, V.readAggregation, V.listAggregations, V.createFilterGroup,
    V.readFilterGroup, V.updateFilterGroup, V.deleteFilterGroup, V.createDecoration, V.updateDecoration, V.deleteDecoration,
  ].map((op) => op.name),
);

/**
 * The operation to check for `operation` on a view by this user: null when the view is someone
 * else's personal view (it does not exist for them); for the owner of a personal view, the right
 * to use personal views stands for the view operations above; otherwise the operation itself.
 */
export function operationOnView(view: Pick<ViewEntity, 'ownershipType' | 'ownedById'>, userId: number, operation: OperationType): OperationType | null {
  if (!isPersonal(view)) return operation;
  if (view.ownedById !== userId) return null;
  return ALLOWED_ON_OWN_PERSONAL_VIEW.has(operation.name) ? V.createAndUsePersonalView : operation;
}
