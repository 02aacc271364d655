import type { FieldError } from '../../core/errors/api-error';
import { pythonInt } from '../../core/validation/python-int';
import type { ProseMirrorDoc } from './row-comment.entity';

/**
 * Checks a comment message against Baserow's ProseMirror schema: a `doc` of one or more
 * `paragraph`s holding `text` (non-empty, no marks: the schema has none), `hardBreak` and
 * `mention` (`attrs.id` a user id, `attrs.label` its name). Nodes carry only the keys
 * ProseMirror's JSON has, so the stored document is bounded by its length. A message with
 * nothing but whitespace is empty and refused like a malformed one.
 *
 * A mention's id is read as Baserow's `extract_mentioned_users_in_workspace` reads it (a user
 * id filter: Python's `int()` of it; none without one): one it cannot read makes the mention
 * malformed, which the service answers with ERROR_INVALID_COMMENT_MENTION once the row is found.
 */
export type CheckedMessage = { doc: ProseMirrorDoc; malformedMention: boolean } | { error: FieldError };

const INVALID: FieldError = { error: 'The message must be a valid ProseMirror JSON document.', code: 'invalid' };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isPrimitive = (value: unknown): boolean => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** The keys each node type may have; `attrs` values are plain JSON scalars (ProseMirror ignores unknown attrs). */
const NODE_KEYS: Record<string, readonly string[]> = {
  doc: ['type', 'content', 'attrs'],
  paragraph: ['type', 'content', 'attrs'],
  text: ['type', 'text', 'marks'],
  hardBreak: ['type', 'attrs'],
  mention: ['type', 'attrs'],
};
const INLINE = new Set(['text', 'hardBreak', 'mention']);

export function checkCommentMessage(value: unknown, maxLength: number): CheckedMessage {
  if (!isObject(value)) return { error: INVALID };
  let malformedMention = false;
  let hasContent = false;

  const node = (json: unknown, allowed: (type: string) => boolean): boolean => {
    if (!isObject(json) || typeof json.type !== 'string' || !allowed(json.type)) return false;
    const keys = NODE_KEYS[json.type];
    if (Object.keys(json).some((key) => !keys.includes(key))) return false;
    if (json.attrs !== undefined && (!isObject(json.attrs) || !Object.values(json.attrs).every(isPrimitive))) return false;
    switch (json.type) {
      case 'doc':
        return Array.isArray(json.content) && json.content.length > 0 && json.content.every((child) => node(child, (type) => type === 'paragraph'));
      case 'paragraph':
        return json.content === undefined || (Array.isArray(json.content) && json.content.every((child) => node(child, (type) => INLINE.has(type))));
      case 'text':
        if (typeof json.text !== 'string' || json.text === '') return false;
        if (json.marks !== undefined && !(Array.isArray(json.marks) && json.marks.length === 0)) return false;
        if (json.text.trim()) hasContent = true;
        return true;
      case 'mention': {
        const attrs = json.attrs as Record<string, unknown> | undefined;
        if (attrs?.label !== undefined && attrs.label !== null && typeof attrs.label !== 'string') return false;
        if (typeof attrs?.id === 'string' && pythonInt(attrs.id) === null) malformedMention = true;
        hasContent = true;
        return true;
      }
      default:
        return true;
    }
  };

  if (!node(value, (type) => type === 'doc') || !hasContent) return { error: INVALID };
  // Measured once the shape is known: a valid document is at most five levels deep.
  if (JSON.stringify(value).length > maxLength) return { error: { error: `Ensure this field has no more than ${maxLength} characters.`, code: 'max_length' } };
  return { doc: value, malformedMention };
}
