import { signUp, SignedUp, startApp, TestApp } from './support/app';

/** Baserow premium's `active_licenses` user data and admin license list, as its web client reads them (premium and enterprise). */
describe('licenses', () => {
  let t: TestApp;
  let staff: SignedUp;
  let member: SignedUp;
  const premium = { instance_wide: { premium: true, enterprise: true }, per_workspace: {} };

  beforeAll(async () => {
    t = await startApp();
    staff = await signUp(t, 'Admin');
    member = await signUp(t, 'Member');
  });
  afterAll(() => t.close());

  it('announces the premium and enterprise licenses, instance wide, in the user data of sign-up, token-auth, token-refresh and token-verify', async () => {
    const signedUp = await t.request('POST', '/api/user/', { body: { name: 'New', email: 'licenses-new@example.com', password: 'password123', authenticate: true } });
    expect(signedUp.body.active_licenses).toEqual(premium);
    const login = await t.request('POST', '/api/user/token-auth/', { body: { email: member.email, password: member.password } });
    expect(login.status).toBe(200);
    expect(login.body.active_licenses).toEqual(premium);
    const refresh = await t.request('POST', '/api/user/token-refresh/', { body: { refresh_token: member.refresh } });
    expect(refresh.body.active_licenses).toEqual(premium);
    const verify = await t.request('POST', '/api/user/token-verify/', { body: { refresh_token: member.refresh } });
    expect(verify.body.active_licenses).toEqual(premium);
  });

  it('announces it in the settings too, read where no one is signed in (public views)', async () => {
    const settings = await t.request('GET', '/api/settings/');
    expect(settings.body.instance_wide_licenses).toEqual({ premium: true, enterprise: true });
  });

  it('lists a built-in premium and enterprise license to staff, with a seat for every user', async () => {
    const res = await t.request('GET', '/api/licenses/', { token: staff.token });
    expect(res.status).toBe(200);
    expect(res.body.map((l: { id: number; product_code: string }) => [l.id, l.product_code])).toEqual([[1, 'premium'], [2, 'enterprise']]);
    const [license] = res.body;
    expect(Object.keys(license)).toEqual([
      'id', 'license_id', 'is_active', 'last_check', 'valid_from', 'valid_through', 'free_users_count', 'seats_taken', 'seats',
      'application_users_taken', 'application_users', 'product_code', 'issued_on', 'issued_to_email', 'issued_to_name',
    ]);
    const users = 3;
    expect(license).toMatchObject({ id: 1, is_active: true, product_code: 'premium', seats: users, seats_taken: users, free_users_count: 0, last_check: null });
    expect(typeof license.license_id).toBe('string');
    expect(Date.parse(license.valid_from)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(license.valid_through)).toBeGreaterThan(Date.now());
    expect(license.issued_on).toBe(license.valid_from);
  });

  it("answers Baserow's errors to other users and anonymous requests", async () => {
    const other = await t.request('GET', '/api/licenses/', { token: member.token });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    const anonymous = await t.request('GET', '/api/licenses/');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ detail: 'Authentication credentials were not provided.' });
  });
});
