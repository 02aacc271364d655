/**
 * The SQL condition (on a `workspace` alias) that keeps template preview workspaces out: they are
 * nobody's, so they show up in no listing of workspaces a person or an admin sees (Baserow's
 * `template__isnull=True`).
 */
export function notTemplateWorkspace(alias: string): string {
  return `NOT EXISTS (SELECT 1 FROM "core_template" ct WHERE ct.workspace_id = ${alias}.id)`;
}
