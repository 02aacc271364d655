import type { SqliteFunctions } from '../../../core/database/sqlite-functions';

export const URI_SQLITE_FUNCTIONS: SqliteFunctions = {
  // Baserow's PostgreSQL functions try_encode_uri(text) and try_encode_uri_component(text).
  try_encode_uri: { fn: (text: string | null) => encodeUri(text, URI_KEPT) },
  try_encode_uri_component: { fn: (text: string | null) => encodeUri(text, URI_COMPONENT_KEPT) },
};

/** Characters Baserow's try_encode_uri and try_encode_uri_component keep as they are. */
const URI_KEPT = /^[0-9a-zA-Z_.!~*'();,/?:@&=+$#-]$/;
const URI_COMPONENT_KEPT = /^[0-9a-zA-Z_.!~*'()-]$/;

/** Every other character as %xx of its UTF-8 bytes (lowercase hex, as Baserow's). */
function encodeUri(text: string | null, kept: RegExp): string | null {
  if (text == null) return null;
  return Array.from(String(text))
    .map((c) => (kept.test(c) ? c : [...Buffer.from(c, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')))
    .join('');
}
