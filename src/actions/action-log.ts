import { Injectable } from '@nestjs/common';
import { AsyncSlot } from '../core/context/async-frame';
import { RequestContext } from '../core/context/request-context';
import { UnitOfWork } from '../core/database/unit-of-work';

/** Where an action is recorded: its undo scope and its workspace (null: the user's own, e.g. workspace order). */
export interface ActionPlace {
  scope: string;
  workspaceId: number | null;
}

const replaying = new AsyncSlot<true>('action-replay');

/**
 * Records what a person or a token does, inside the acting unit of work: the services call
 * `record` where they already hold what an undo needs (no extra read), and the actions module
 * writes a transaction's actions in one INSERT just before it commits. Every action is written,
 * with the request's `ClientSessionId` or without (then never undoable, as in Baserow, but
 * there for the audit log). An undo or redo replays services without recording again.
 */
@Injectable()
export class ActionLog {
  constructor(private readonly db: UnitOfWork) {}

  record(type: string, params: Record<string, unknown>, place: ActionPlace): void {
    if (replaying.get()) return;
    const actor = RequestContext.current();
    this.db.recordAction({
      type,
      scope: place.scope,
      params,
      workspaceId: place.workspaceId,
      userId: actor.userId,
      clientSessionId: actor.clientSessionId ?? null,
      actionGroupId: actor.actionGroupId ?? null,
    });
  }

  /** Runs an undo or redo: what the services do meanwhile is not recorded as new actions. */
  replay<T>(work: () => Promise<T>): Promise<T> {
    return replaying.run(true, work);
  }
}
