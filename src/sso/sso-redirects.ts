/** Baserow's `SsoErrorCode`: what the web client's `/login/error` page shows. */
export const SsoErrorCode = {
  invalidSamlRequest: 'errorInvalidSamlRequest',
  invalidSamlResponse: 'errorInvalidSamlResponse',
  userDeactivated: 'errorUserDeactivated',
  providerDoesNotExist: 'errorProviderDoesNotExist',
  authFlowError: 'errorAuthFlowError',
  differentProvider: 'errorDifferentProvider',
  invitationEmailMismatch: 'errorWorkspaceInvitationEmailMismatch',
  signupDisabled: 'errorSignupDisabled',
} as const;
export type SsoErrorCode = (typeof SsoErrorCode)[keyof typeof SsoErrorCode];

/** A sign-in refused: the browser is sent to the web client's error page with the code. */
export class SsoError extends Error {
  constructor(
    readonly code: SsoErrorCode,
    why: string,
  ) {
    super(why);
  }
}

/** Baserow's error pages and landing page of the web client. */
export const loginErrorUrl = (frontendUrl: string, code: SsoErrorCode) => `${frontendUrl}/login/error?${new URLSearchParams({ error: code })}`;

/**
 * Baserow's `get_valid_frontend_url`: where the browser lands after signing in. A relative
 * `original` is taken on the web client's host; an absolute one only when it is on that host
 * (otherwise the dashboard), so a sign-in never hands tokens to another site.
 */
export function frontendLanding(frontendUrl: string, original: string | null | undefined, query: Record<string, string> = {}): string {
  const base = new URL(frontendUrl);
  let target: URL;
  try {
    target = new URL(original || '/dashboard', base);
  } catch {
    target = new URL('/dashboard', base);
  }
  if (target.protocol !== base.protocol || target.host !== base.host) target = new URL('/dashboard', base);
  if (target.pathname === '/' || target.pathname === '') target.pathname = '/dashboard';
  for (const [key, value] of Object.entries(query)) target.searchParams.set(key, value);
  return target.toString();
}

/**
 * Answers a sign-in step with a redirect: where `work` says, or, when it refuses (SsoError), to
 * the web client's error page with the code, the reason logged. Other errors stay errors.
 */
export async function redirectOrRefuse(
  res: { redirect(status: number, url: string): void },
  frontendUrl: string,
  logger: { warn(message: string): void },
  what: string,
  work: () => Promise<string>,
): Promise<void> {
  let location: string;
  try {
    location = await work();
  } catch (error) {
    if (!(error instanceof SsoError)) throw error;
    logger.warn(`${what} sign-in refused (${error.code}): ${error.message}`);
    location = loginErrorUrl(frontendUrl, error.code);
  }
  res.redirect(302, location);
}
