import { TypeRegistry } from '../../core/registry/type-registry';
import { databaseId } from '../../core/validation/ids';
import { Injectable } from '@nestjs/common';

/** Who is subscribing: a user, or an anonymous (public view) socket with `userId` null. */
export interface PageSubscriber {
  userId: number | null;
  webSocketId: string | null;
}

/**
 * A kind of page a socket can subscribe to (Baserow's page type registry). The frame's
 * declared parameters are read flat from `{"page": type, ...}`; a module adds a page type
 * by registering an implementation with PageTypeRegistry when it starts.
 */
export interface PageType {
  readonly type: string;
  /** The parameter names read from the frame, in the order they are echoed. */
  readonly parameters: readonly string[];
  /** Whether the subscriber may follow the page; failures are silent on the wire. */
  canAdd(subscriber: PageSubscriber, parameters: Record<string, unknown>): Promise<boolean>;
  /** The group the page's events are sent to. */
  group(parameters: Record<string, unknown>): string;
  /** The group revocations of access are sent to, if the page has one. */
  permissionGroup(parameters: Record<string, unknown>): string | null;
}

@Injectable()
export class PageTypeRegistry extends TypeRegistry<PageType> {}

/**
 * A positive integer id from a frame parameter: JSON numbers and digit strings are
 * accepted (the client sends numbers), anything else is not an id.
 */
export function idParameter(value: unknown): number | null {
  return databaseId(value);
}

/** `permissions-table-<id>`: shared by the table page and the row pages of that table. */
export function tablePermissionGroup(tableId: unknown): string {
  return `permissions-table-${String(tableId)}`;
}
