/**
 * A module loaded on its first use rather than at start-up: what only some requests need (image
 * thumbnails, multipart bodies, XML, SMTP, the PostgreSQL driver on SQLite) does not slow boot.
 */
export function lazy<T>(load: () => T): () => T {
  let loaded: { value: T } | null = null;
  return () => (loaded ??= { value: load() }).value;
}
