import { Injectable } from '@nestjs/common';
import { AsyncSlot } from '../core/context/async-frame';
import { RequestContext } from '../core/context/request-context';
import { RecordedAction, UnitOfWork } from '../core/database/unit-of-work';

/** Where an action is recorded: its undo scope and its workspace (null: the user's own, e.g. workspace order). */
export interface ActionPlace {
  scope: string;
  workspaceId: number | null;
  /** The actor when the request has none yet (a sign-in: the user; a failed one: null and the e-mail tried). */
  actor?: { userId: number | null; email?: string | null };
}

/** Whether an action is done, or an undo or redo of one runs (Baserow's ActionCommandType). */
export type ActionCommandType = 'DO' | 'UNDO' | 'REDO';

/** A reader of a transaction's recorded actions (the audit log), run in it just before it commits. */
export type ActionReader = (actions: RecordedAction[], now: string) => Promise<void>;

const replaying = new AsyncSlot<Exclude<ActionCommandType, 'DO'>>('action-replay');

/** What the caller's writes are part of: an undo, a redo, or a new action (row history keeps it). */
export function currentActionCommand(): ActionCommandType {
  return replaying.get() ?? 'DO';
}

/**
 * Records what a person or a token does, inside the acting unit of work: the services call
 * `record` where they already hold what an undo needs (no extra read), and the actions module
 * writes a transaction's actions just before it commits: the undoable ones (with the request's
 * `ClientSessionId`, of a registered type) in one INSERT into `core_action`, every one of them
 * (and each undo and redo) to the readers of the record (the audit log). An undo or redo
 * replays services without recording again.
 */
@Injectable()
export class ActionLog {
  private readonly readerList: ActionReader[] = [];

  constructor(private readonly db: UnitOfWork) {}

  /** Modules that read the record (the audit log) register here; this module does not depend on them. */
  addReader(reader: ActionReader): void {
    this.readerList.push(reader);
  }

  get readers(): readonly ActionReader[] {
    return this.readerList;
  }

  record(type: string, params: Record<string, unknown>, place: ActionPlace): void {
    if (replaying.get()) return;
    const actor = RequestContext.current();
    this.db.recordAction({
      type,
      scope: place.scope,
      params,
      workspaceId: place.workspaceId,
      userId: place.actor ? place.actor.userId : actor.userId,
      userEmail: place.actor?.email ?? null,
      clientSessionId: actor.clientSessionId ?? null,
      actionGroupId: actor.actionGroupId ?? null,
      ipAddress: actor.ipAddress ?? null,
    });
  }

  /** Records that actions were undone or redone (for the readers; the undo stack marks them itself). */
  recordReplayed(command: 'UNDO' | 'REDO', actions: { type: string; scope: string; params: Record<string, unknown>; workspaceId: number | null }[], ipAddress: string | null): void {
    const actor = RequestContext.current();
    for (const action of actions) {
      this.db.recordAction({ ...action, command, userId: actor.userId, clientSessionId: actor.clientSessionId ?? null, actionGroupId: null, ipAddress });
    }
  }

  /** Runs an undo or redo: what the services do meanwhile is not recorded as new actions. */
  replay<T>(command: 'UNDO' | 'REDO', work: () => Promise<T>): Promise<T> {
    return replaying.run(command, work);
  }
}
