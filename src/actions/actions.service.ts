import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { RequestContext } from '../core/context/request-context';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ApiError, ErrorTree, validationError } from '../core/errors/api-error';
import { repeatEvery } from '../core/lifecycle/repeat-every';
import { bodyObjectError, checkObject, FieldSpec, pythonTypeName } from '../core/validation/field';
import { isoMicros } from '../database/rows/row.repository';
import type { UserEntity } from '../users/user.entity';
import { ActionLog } from './action-log';
import { ActionRecord, ActionRepository, UndoStack } from './action.repository';
import { ActionScopes, ActionTypeRegistry } from './action-type';

/** Baserow's MAX_UNDOABLE_ACTIONS_PER_ACTION_GROUP. */
export const MAX_UNDOABLE_ACTIONS_PER_ACTION_GROUP = 20;

export type UndoRedoResultCode = 'SUCCESS' | 'NOTHING_TO_DO' | 'SKIPPED_DUE_TO_ERROR';

export interface UndoRedoJson {
  actions: { action_type: string; action_scope: string }[];
  result_code: UndoRedoResultCode;
}

/** The scope keys of an undo or redo request (Baserow's action scope registry, free core). */
const SCOPE_SPECS: Record<string, FieldSpec> = {
  root: { kind: 'bool', required: false, nullable: true },
  workspace: { kind: 'int', min: 0, required: false, nullable: true },
  application: { kind: 'int', min: 0, required: false, nullable: true },
  table: { kind: 'int', min: 0, required: false, nullable: true },
  view: { kind: 'int', min: 0, required: false, nullable: true },
  workflow: { kind: 'int', min: 0, required: false, nullable: true },
  teams_in_workspace: { kind: 'int', min: 0, required: false, nullable: true },
};

const sessionNotSet = () => new ApiError('ERROR_CLIENT_SESSION_ID_HEADER_NOT_SET', 400, 'The ClientSessionId must be set when using this endpoint.');

/**
 * Undo and redo (Baserow's ActionHandler): the newest action of the user's client session in
 * the requested scopes (with the rest of its action group) is undone through the services that
 * did it, in one transaction, and its messages reach every socket, the undoing client's too.
 * An action that cannot be undone any more (its object is gone) is marked with the error and
 * skipped, so the next undo moves on; a successful undo or redo is recorded for the readers
 * (the audit log) as Baserow sends `action_done` with UNDO or REDO. Also writes each
 * transaction's undoable actions before it commits, hands all of them to the readers, and
 * deletes actions older than MINUTES_UNTIL_ACTION_CLEANED_UP.
 */
@Injectable()
export class ActionsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ActionsService.name);
  private stopCleanup = (): void => undefined;

  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: ActionRepository,
    private readonly registry: ActionTypeRegistry,
    private readonly log: ActionLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.db.beforeCommit(async () => {
      const actions = this.db.takeActions();
      if (!actions.length) return;
      const now = isoMicros(new Date());
      // Only what can be undone joins the undo stack: the audit log is the record of the rest.
      const undoable = actions.filter((action) => !action.command && action.clientSessionId && this.registry.get(action.type));
      if (undoable.length) await this.repo.insert(undoable, now);
      for (const reader of this.log.readers) await reader(actions, now);
    });
    this.stopCleanup = repeatEvery(this.config.oldActionCleanupIntervalMinutes, () => this.deleteOld(), (error) => this.logger.error('Old actions cleanup failed', error.stack));
  }

  onModuleDestroy(): void {
    this.stopCleanup();
  }

  /** Deletes actions nobody may undo any more (Baserow's periodic cleanup). */
  async deleteOld(now = new Date()): Promise<void> {
    await this.db.run(() => this.repo.deleteBefore(isoMicros(this.cutoff(now))));
  }

  async undo(user: UserEntity, body: unknown): Promise<UndoRedoJson> {
    const stack = this.stackOf(user, body);
    const ip = RequestContext.current().ipAddress ?? null;
    const actions = await this.replaying(user, stack.session, 'UNDO', () => this.undoNext(user, stack, ip));
    return answer(actions);
  }

  async redo(user: UserEntity, body: unknown): Promise<UndoRedoJson> {
    const stack = this.stackOf(user, body);
    const ip = RequestContext.current().ipAddress ?? null;
    const actions = await this.replaying(user, stack.session, 'REDO', () => this.redoNext(user, stack, ip));
    return answer(actions);
  }

  private async undoNext(user: UserEntity, stack: UndoStack, ipAddress: string | null): Promise<ActionRecord[]> {
    let picked: ActionRecord[] = [];
    const now = isoMicros(new Date());
    try {
      return await this.db.run(async () => {
        const target = await this.repo.nextToUndo(stack);
        if (!target) return [];
        picked = target.actionGroup ? await this.repo.group(stack, target.actionGroup, false, MAX_UNDOABLE_ACTIONS_PER_ACTION_GROUP) : [target];
        for (const action of picked) {
          const changed = await this.registry.require(action.type).undo(action.params, { user });
          if (changed) action.params = changed;
        }
        await this.repo.mark(picked, now, null, now);
        this.log.recordReplayed('UNDO', picked, ipAddress);
        return picked.map((action) => ({ ...action, error: null }));
      });
    } catch (error) {
      if (!picked.length) throw error;
      // Rolled back: the actions are skipped (undone, with the error), the next undo takes older ones.
      const text = describe(error);
      await this.db.run(() => this.repo.mark(picked, now, text, now));
      return picked.map((action) => ({ ...action, error: text }));
    }
  }

  private async redoNext(user: UserEntity, stack: UndoStack, ipAddress: string | null): Promise<ActionRecord[]> {
    let picked: ActionRecord[] = [];
    const now = isoMicros(new Date());
    try {
      return await this.db.run(async () => {
        const target = await this.repo.nextToRedo(stack);
        // Something done after the undo: nothing to redo (Baserow keeps no explicit redo stack).
        if (!target || (await this.repo.doneSince(stack, target.undoneAt!))) return [];
        picked = target.actionGroup ? await this.repo.group(stack, target.actionGroup, true, MAX_UNDOABLE_ACTIONS_PER_ACTION_GROUP) : [target];
        // An undo that failed did nothing: its redo only puts it back on the undo stack (still in error).
        if (!picked.some((action) => action.error)) {
          for (const action of picked) {
            const changed = await this.registry.require(action.type).redo(action.params, { user });
            if (changed) action.params = changed;
          }
        }
        await this.repo.mark(picked, null, picked.find((action) => action.error)?.error ?? null, now);
        if (!picked.some((action) => action.error)) this.log.recordReplayed('REDO', picked, ipAddress);
        return picked;
      });
    } catch (error) {
      if (!picked.length) throw error;
      const text = describe(error);
      await this.db.run(() => this.repo.mark(picked, null, text, now));
      return picked.map((action) => ({ ...action, error: text }));
    }
  }

  /**
   * Runs an undo or redo as the user with no origin socket (Baserow clears the web socket id,
   * so the undoing client gets the messages too), recording nothing new.
   */
  private replaying<T>(user: UserEntity, session: string, command: 'UNDO' | 'REDO', work: () => Promise<T>): Promise<T> {
    return RequestContext.run({ userId: user.id, webSocketId: null, clientSessionId: session, actionGroupId: null }, () => this.log.replay(command, work));
  }

  /** The request's stack: the body checked first, then the `ClientSessionId` header required. */
  private stackOf(user: UserEntity, body: unknown): UndoStack & { session: string } {
    const scopes = parseScopes(body);
    const session = RequestContext.current().clientSessionId;
    if (!session) throw sessionNotSet();
    return { userId: user.id, session, scopes, types: this.registry.names(), notBefore: isoMicros(this.cutoff(new Date())) };
  }

  private cutoff(now: Date): Date {
    return new Date(now.getTime() - this.config.minutesUntilActionCleanedUp * 60_000);
  }
}

function answer(actions: ActionRecord[]): UndoRedoJson {
  const result_code: UndoRedoResultCode = !actions.length ? 'NOTHING_TO_DO' : actions[0].error ? 'SKIPPED_DUE_TO_ERROR' : 'SUCCESS';
  return { actions: actions.map((action) => ({ action_type: action.type, action_scope: action.scope })), result_code };
}

function describe(error: unknown): string {
  if (error instanceof ApiError) return `${error.code}: ${typeof error.detail === 'string' ? error.detail : JSON.stringify(error.detail)}`;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * `{"scopes": {...}}` as Baserow's UndoRedoRequestSerializer reads it: `scopes` required, its
 * keys the registered scope types (an unknown one is refused), falsy values ignored. Answers
 * the scope strings (none: every scope).
 */
export function parseScopes(body: unknown): string[] {
  const notAnObject = bodyObjectError(body);
  if (notAnObject) throw validationError(notAnObject);
  const source = (body ?? {}) as Record<string, unknown>;
  if (!('scopes' in source)) throw validationError({ scopes: [{ error: 'This field is required.', code: 'required' }] });
  const scopes = source.scopes;
  if (scopes === null) throw validationError({ scopes: [{ error: 'This field may not be null.', code: 'null' }] });
  if (typeof scopes !== 'object' || Array.isArray(scopes)) {
    throw validationError({ scopes: { non_field_errors: [{ error: `Invalid data. Expected a dictionary, but got ${pythonTypeName(scopes)}.`, code: 'invalid' }] } });
  }
  const { values, errors } = checkObject(SCOPE_SPECS, scopes as Record<string, unknown>);
  if (Object.keys(errors).length) throw validationError({ scopes: errors as ErrorTree });
  const unknown = Object.keys(scopes).filter((key) => !(key in SCOPE_SPECS));
  if (unknown.length) {
    const names = `{${unknown.map((key) => `'${key}'`).join(', ')}}`;
    const error = `Received unknown fields: ${names}. Please check the api documentation and only provide valid fields.`;
    throw validationError({ scopes: { non_field_errors: [{ error, code: 'invalid' }] } });
  }
  const list: string[] = [];
  if (values.root) list.push(ActionScopes.root());
  for (const key of ['workspace', 'application', 'table', 'view', 'workflow'] as const) {
    const id = values[key];
    if (typeof id === 'number' && id) list.push(key === 'workflow' ? `workflow${id}` : ActionScopes[key](id));
  }
  if (typeof values.teams_in_workspace === 'number' && values.teams_in_workspace) list.push(ActionScopes.teams(values.teams_in_workspace));
  return list;
}
