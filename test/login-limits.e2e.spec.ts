import { signUp, startApp, TestApp } from './support/app';

/** Issue 8 item 4 / decision 8: failed sign-ins limited per (address, e-mail), per e-mail and per address. */
const tooMany = (res: { status: number; body: any }) => {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: 'ERROR_TOO_MANY_LOGIN_ATTEMPTS', detail: 'Too many failed login attempts. Please try again later.' });
};

const login = (t: TestApp, email: string, password: string, forwardedFor?: string) =>
  t.request('POST', '/api/user/token-auth/', { body: { email, password }, headers: forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {} });

describe('Login limits with the defaults (10 per address and e-mail, 50 per e-mail, 500 per address)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('does not lock other users out after 60 failures from one address with various e-mails', async () => {
    const victim = await signUp(t);
    for (let i = 0; i < 60; i += 1) {
      const res = await login(t, `attacker${i % 6}@example.com`, 'wrong-password');
      expect(res.status).toBe(401);
    }
    expect((await login(t, victim.email, victim.password)).status).toBe(200);
    // 60 password checks take a while on a busy machine.
  }, 120_000);

  it('answers 429 on the 11th failure for one e-mail from one address, even with the right password, and other addresses are unaffected', async () => {
    const user = await signUp(t);
    for (let i = 0; i < 10; i += 1) expect((await login(t, user.email, 'wrong-password')).status).toBe(401);
    tooMany(await login(t, user.email, 'wrong-password'));
    tooMany(await login(t, user.email, user.password));
    // Another user at the same address signs in.
    const neighbour = await signUp(t);
    expect((await login(t, neighbour.email, neighbour.password)).status).toBe(200);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: a forged header does not reset the count', async () => {
    const user = await signUp(t);
    for (let i = 0; i < 10; i += 1) expect((await login(t, user.email, 'wrong-password', `10.0.0.${i}`)).status).toBe(401);
    tooMany(await login(t, user.email, user.password, '10.9.9.9'));
  });
});

describe('Login limits behind one proxy (TRUST_PROXY=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ TRUST_PROXY: '1', LOGIN_MAX_FAILURES_PER_IP_AND_EMAIL: '3', LOGIN_MAX_FAILURES_PER_EMAIL: '100', LOGIN_MAX_FAILURES_PER_IP: '5' });
  });
  afterAll(() => t.close());

  it('counts two forwarded addresses separately', async () => {
    const user = await signUp(t);
    for (let i = 0; i < 3; i += 1) expect((await login(t, user.email, 'wrong-password', '203.0.113.1')).status).toBe(401);
    tooMany(await login(t, user.email, user.password, '203.0.113.1'));
    // The same e-mail from another client address behind the proxy still signs in.
    expect((await login(t, user.email, user.password, '203.0.113.2')).status).toBe(200);
  });

  it('stops one address at the per-address ceiling, whatever the e-mails, and only that address', async () => {
    const user = await signUp(t);
    for (let i = 0; i < 5; i += 1) expect((await login(t, `guess${i}@example.com`, 'wrong-password', '198.51.100.7')).status).toBe(401);
    tooMany(await login(t, user.email, user.password, '198.51.100.7'));
    expect((await login(t, user.email, user.password, '198.51.100.8')).status).toBe(200);
  });
});

describe('Login limits per e-mail across addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ TRUST_PROXY: 'loopback', LOGIN_MAX_FAILURES_PER_IP_AND_EMAIL: '3', LOGIN_MAX_FAILURES_PER_EMAIL: '5' });
  });
  afterAll(() => t.close());

  it('answers 429 once one e-mail has failed the per-e-mail number of times from any addresses', async () => {
    const user = await signUp(t);
    for (let i = 0; i < 5; i += 1) expect((await login(t, user.email, 'wrong-password', `192.0.2.${i}`)).status).toBe(401);
    tooMany(await login(t, user.email, 'wrong-password', '192.0.2.99'));
  });
});
