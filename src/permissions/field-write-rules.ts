/** The minimum role a field's cells may be written by (Baserow enterprise's FieldPermissionsRoleEnum). */
export const FIELD_WRITE_ROLES = ['EDITOR', 'BUILDER', 'ADMIN', 'CUSTOM', 'NOBODY'] as const;
export type FieldWriteRole = (typeof FIELD_WRITE_ROLES)[number];

/** A field's write rule; a field without one may be written by EDITOR and above, and in forms. */
export interface FieldWriteRule {
  role: FieldWriteRole;
  allowInForms: boolean;
}

/** A rule with the field's place (the permissions endpoint's `write_field_values` object lists them). */
export interface PlacedFieldWriteRule extends FieldWriteRule {
  fieldId: number;
  tableId: number;
  databaseId: number;
}

/**
 * Field permissions as an input of the permission check: the seam the check (and forms) read
 * the rules of a table's fields through. The field-permissions module provides its
 * implementation for this token; the permissions module knows no field table.
 */
export abstract class FieldWriteRules {
  /** The rules of the table's fields that have one, by field id (cached by metadata version). */
  abstract ofTable(tableId: number): Promise<ReadonlyMap<number, FieldWriteRule>>;

  /** The rules of the live fields of the workspace's live tables (cached by metadata version). */
  abstract ofWorkspace(workspaceId: number): Promise<readonly PlacedFieldWriteRule[]>;
}
