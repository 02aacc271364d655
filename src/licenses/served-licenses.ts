/**
 * The license types whose features this server serves to everyone (spec README decision 4:
 * Baserow's premium and enterprise features are ordinary here). Baserow's web client shows a
 * feature only while a license of its type is active, so these are announced as active,
 * instance wide: `premium`, and `enterprise` since roles, teams, field permissions, the audit
 * log and single sign-on exist.
 */
export const SERVED_LICENSE_TYPES = ['premium', 'enterprise'] as const;

/** `{"premium": true, "enterprise": true}`: Baserow's instance-wide licenses, in the user data and the settings. */
export function instanceWideLicenses(): Record<string, true> {
  return Object.fromEntries(SERVED_LICENSE_TYPES.map((type) => [type, true]));
}
