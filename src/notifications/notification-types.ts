/**
 * What the server knows of each notification type (Baserow's notification type registry):
 * whether it is mailed in the summary e-mail, with which title and description, and whether
 * the web client has a page for it (then the mail links to it). A type that is not
 * registered is shown in the API as any other but never mailed. A module adds or replaces
 * one with `registerNotificationType` (e.g. the webhooks module with its configured limits).
 */
export interface NotificationForEmail {
  type: string;
  data: Record<string, unknown>;
  /** The sender's first name, or null (system, anonymous, deleted). */
  senderName: string | null;
}

export interface NotificationTypeSpec {
  type: string;
  /** Present for types mailed in the summary (Baserow's EmailNotificationTypeMixin). */
  email?: {
    title(notification: NotificationForEmail): string;
    description(notification: NotificationForEmail): string | null;
  };
  /** The web client has a route for it (`/notification/{workspace_id}/{id}`). */
  hasWebFrontendRoute?: boolean;
}

const types = new Map<string, NotificationTypeSpec>();

export function registerNotificationType(spec: NotificationTypeSpec): void {
  types.set(spec.type, spec);
}

export function notificationType(type: string): NotificationTypeSpec | undefined {
  return types.get(type);
}

export function isEmailNotificationType(type: string): boolean {
  return types.get(type)?.email !== undefined;
}

const str = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
const unknownUser = (n: NotificationForEmail): string => n.senderName ?? 'An unknown user';
const rowName = (n: NotificationForEmail): string => str(n.data.row_name ?? n.data.row_id);

/** ProseMirror JSON to plain text: text nodes, mentions as `@label`, one line per paragraph. */
export function proseMirrorText(doc: unknown): string {
  const node = (json: unknown): string => {
    if (!json || typeof json !== 'object') return '';
    const value = json as { type?: unknown; text?: unknown; attrs?: { label?: unknown }; content?: unknown };
    if (value.type === 'text') return str(value.text);
    if (value.type === 'mention') return `@${str(value.attrs?.label)}`;
    if (value.type === 'hardBreak') return '\n';
    const children = Array.isArray(value.content) ? value.content.map(node) : [];
    return children.join(value.type === 'doc' ? '\n' : '');
  };
  return node(doc);
}

const commentDescription = (n: NotificationForEmail): string => proseMirrorText(n.data.message);

/** Baserow 1.35.3's types of the free core and of row comments (premium there), with their mail texts. */
const BUILT_IN: NotificationTypeSpec[] = [
  {
    type: 'row_comment_mention',
    hasWebFrontendRoute: true,
    email: {
      title: (n) => `${unknownUser(n)} mentioned you in row ${rowName(n)} in ${str(n.data.table_name)}.`,
      description: commentDescription,
    },
  },
  {
    type: 'row_comment',
    hasWebFrontendRoute: true,
    email: {
      title: (n) => `${unknownUser(n)} posted a comment in row ${rowName(n)} in ${str(n.data.table_name)}.`,
      description: commentDescription,
    },
  },
  {
    type: 'collaborator_added_to_row',
    hasWebFrontendRoute: true,
    email: {
      title: (n) => `${unknownUser(n)} assigned you to ${str(n.data.field_name)} in row ${rowName(n)} in ${str(n.data.table_name)}.`,
      description: () => null,
    },
  },
  {
    type: 'user_mention_in_rich_text_field',
    hasWebFrontendRoute: true,
    email: {
      title: (n) => `${unknownUser(n)} mentioned you in ${str(n.data.field_name)} in row ${rowName(n)} in ${str(n.data.table_name)}.`,
      description: () => null,
    },
  },
  {
    type: 'form_submitted',
    hasWebFrontendRoute: true,
    email: {
      title: (n) => `${str(n.data.form_name)} has been submitted in ${str(n.data.table_name)}`,
      description: (n) => {
        const values = Array.isArray(n.data.values) ? (n.data.values as unknown[][]) : [];
        const shown = 3;
        let summary = values.slice(0, shown).map(([key, value]) => `${str(key)}: ${str(value)}`).join('\n\n');
        const more = Math.max(0, values.length - shown);
        if (more > 0) summary += `\n\n\n${more === 1 ? 'and 1 more field' : `and ${more} more fields`}`;
        return summary;
      },
    },
  },
  {
    type: 'webhook_deactivated',
    hasWebFrontendRoute: true,
    email: {
      title: (n) => `${str(n.data.webhook_name)} webhook has been deactivated.`,
      // Baserow names BASEROW_WEBHOOKS_MAX_CONSECUTIVE_TRIGGER_FAILURES (8 by default); the webhooks module may register its configured value.
      description: () => 'The webhook failed more than 8 consecutive times and was therefore deactivated.',
    },
  },
  {
    type: 'webhook_payload_too_large',
    hasWebFrontendRoute: true,
    email: {
      title: (n) => `${str(n.data.webhook_name)} webhook payload too large.`,
      description: (n) =>
        `The payload for the ${str(n.data.webhook_name)} webhook with event ID ${str(n.data.event_id)} was too large. ` +
        `The content has been split into multiple batches, but data above the batch limit of ${str(n.data.batch_limit)} was discarded.`,
    },
  },
  { type: 'workspace_invitation_created' },
  {
    type: 'workspace_invitation_accepted',
    email: {
      title: (n) => `${unknownUser(n)} accepted your invitation to collaborate on ${str(n.data.invited_to_workspace_name)}.`,
      description: () => null,
    },
  },
  {
    type: 'workspace_invitation_rejected',
    email: {
      title: (n) => `${unknownUser(n)} rejected your invitation to collaborate on ${str(n.data.invited_to_workspace_name)}.`,
      description: () => null,
    },
  },
  { type: 'baserow_version_upgrade' },
];

for (const spec of BUILT_IN) registerNotificationType(spec);
