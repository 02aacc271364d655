import { Injectable, OnModuleInit } from '@nestjs/common';
import { ActionLog } from '../actions/action-log';
import type { RecordedAction } from '../core/database/unit-of-work';
import { AUDIT_DESCRIPTIONS, AuditSubjects } from './audit-descriptions';
import { AuditRepository, NewAuditEntry } from './audit.repository';

/**
 * Writes the audit log from the action record: every action a transaction recorded (and each
 * undo and redo) becomes an entry, in one INSERT just before the transaction commits, as
 * Baserow's audit log listens to `action_done`. No module writes its own audit line.
 */
@Injectable()
export class AuditWriter implements OnModuleInit {
  constructor(
    private readonly log: ActionLog,
    private readonly repo: AuditRepository,
  ) {}

  onModuleInit(): void {
    this.log.addReader((actions, now) => this.repo.insert(actions.map((action) => auditEntry(action, now))));
  }
}

/** An entry of an action: its description's values (not what its undo needs), the ids it names. */
export function auditEntry(action: RecordedAction, now: string): NewAuditEntry {
  const description = AUDIT_DESCRIPTIONS[action.type];
  const subjects: AuditSubjects = description?.subjects?.(action.params) ?? {};
  const ids = { table_id: subjects.tableId, view_id: subjects.viewId, field_id: subjects.fieldId };
  const params = description ? { ...withoutEmpty(ids), ...(description.params?.(action.params) ?? {}) } : action.params;
  return {
    userId: action.userId,
    userEmail: action.userEmail ?? null,
    workspaceId: action.workspaceId,
    type: action.type,
    command: action.command ?? 'DO',
    timestamp: now,
    params,
    ipAddress: action.ipAddress,
    subjects,
  };
}

function withoutEmpty(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined && value !== null));
}
