import { NotificationEmailSender } from '../src/notifications/email-sender';
import { freshDatabase, SignedUp, signUp, startApp, TestApp, TestDatabase } from './support/app';
import { addMember, databaseOf } from './support/fixtures';
import { LoopbackSmtp, ReceivedMail, startSmtp } from './support/smtp';

/**
 * E-mail notifications (issue 22 item 5, Baserow's notification summary mails) through a real
 * SMTP server on loopback: what a user is mailed, when, and that the queue (the flags in the
 * database) survives a restart.
 */

let smtp: LoopbackSmtp;
let db: TestDatabase;
let t: TestApp;

async function mailTo(email: string, timeoutMs = 10_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = summaries().find((m) => m.to.includes(email));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${email}; got ${JSON.stringify(summaries().map((m) => [m.to, m.subject]))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The summary mails (invitations are mailed too). */
const summaries = (): ReceivedMail[] => smtp.received.filter((m) => m.subject.startsWith('You have'));
const mailsTo = (email: string): ReceivedMail[] => summaries().filter((m) => m.to.includes(email));

function env(interval: number): Record<string, string> {
  return {
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    FROM_EMAIL: 'rowspace@example.com',
    EMAIL_NOTIFICATIONS_INTERVAL_SECONDS: String(interval),
    RATE_LIMIT_REQUESTS_PER_USER: '0',
    RATE_LIMIT_REQUESTS_PER_IP: '0',
  };
}

const mention = (user: SignedUp) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'see ' }, { type: 'mention', attrs: { id: user.id, label: user.name } }] }] });

beforeAll(async () => {
  smtp = await startSmtp();
  db = await freshDatabase();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await db?.drop();
});

describe('summary mails', () => {
  let owner: SignedUp;
  let member: SignedUp;
  let daily: SignedUp;
  let never: SignedUp;
  let workspaceId: number;

  it('keeps what is to be mailed across a restart, then mails one summary per user', async () => {
    // The first instance never runs its sender (an hour's interval) and stops.
    const first = await startApp(env(3600), db);
    owner = await signUp(first, 'Owner');
    member = await signUp(first, 'Member');
    daily = await signUp(first, 'Daily');
    never = await signUp(first, 'Never');
    const call = (method: string, path: string, token: string, body?: unknown) => first.request(method, path, { token, body });
    expect((await call('PATCH', '/api/user/account/', daily.token, { email_notification_frequency: 'daily' })).status).toBe(200);
    expect((await call('PATCH', '/api/user/account/', never.token, { email_notification_frequency: 'never' })).status).toBe(200);
    workspaceId = (await call('GET', '/api/workspaces/', owner.token)).body[0].id;
    // workspace_invitation_accepted (mailed) to the owner, for three members joining.
    await addMember(first, owner, member, workspaceId);
    await addMember(first, owner, daily, workspaceId);
    await addMember(first, owner, never, workspaceId);
    const databaseId = await databaseOf(first, owner);
    const tableId = (await call('GET', `/api/database/tables/database/${databaseId}/`, owner.token)).body[0].id;
    const rowId = (await call('GET', `/api/database/rows/table/${tableId}/`, owner.token)).body.results[0].id;
    // Mentions of the owner (mailed), of the daily and the never user.
    for (const user of [owner, owner, daily, never]) {
      expect((await call('POST', `/api/row_comments/${tableId}/${rowId}/`, member.token, { message: mention(user) })).status).toBe(200);
    }
    // A notification read before the mail goes out is not mailed.
    const list = (await call('GET', `/api/notifications/${workspaceId}/`, owner.token)).body;
    const firstMention = list.results.filter((n: any) => n.type === 'row_comment_mention').at(-1);
    expect((await call('PATCH', `/api/notifications/${workspaceId}/${firstMention.id}/`, owner.token, { read: true })).status).toBe(200);
    await first.close();
    expect(summaries()).toEqual([]);

    // The next instance mails within its first interval.
    t = await startApp(env(1), db);
    const mail = await mailTo(owner.email);
    expect(mail.to).toEqual([owner.email]);
    expect(mail.subject).toBe('You have 4 new notifications - Baserow');
    expect(mail.text).toContain('Member accepted your invitation to collaborate on');
    expect(mail.text).toContain('Daily accepted your invitation to collaborate on');
    expect(mail.text).toContain('Never accepted your invitation to collaborate on');
    const newest = list.results.find((n: any) => n.type === 'row_comment_mention' && n.id !== firstMention.id);
    expect(mail.text).toContain(`Member mentioned you in row ${newest.data.row_name} in ${newest.data.table_name}.`);
    expect(mail.text).toContain('see @Owner');
    // Rows with a page in the web client are linked; invitation answers are not.
    expect(mail.text).toContain(`http://localhost:8000/notification/${workspaceId}/${newest.id}`);
    expect(mail.text.match(/\/notification\//g)).toHaveLength(1);
    // Each notification is mailed once; the daily user waits for their hour, the never user for nothing.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(mailsTo(owner.email)).toHaveLength(1);
    expect(mailsTo(daily.email)).toHaveLength(0);
    expect(mailsTo(never.email)).toHaveLength(0);
    expect(mailsTo(member.email)).toHaveLength(0);
  });

  it('mails daily summaries at their hour, not twice within 12 hours', async () => {
    const sender = t.app.get(NotificationEmailSender);
    const midnight = new Date();
    midnight.setUTCHours(0, 5, 0, 0);
    await sender.run(new Date(midnight.getTime() + 3_600_000));
    expect(mailsTo(daily.email)).toHaveLength(0);
    await sender.run(midnight);
    const mail = await mailTo(daily.email);
    expect(mail.subject).toBe('You have 1 new notification - Baserow');
    expect(mail.text).toContain('Member mentioned you in row');
    // A new notification the same day waits for the next day.
    const databaseId = await databaseOf(t, owner);
    const tableId = (await t.request('GET', `/api/database/tables/database/${databaseId}/`, { token: owner.token })).body[0].id;
    const rowId = (await t.request('GET', `/api/database/rows/table/${tableId}/`, { token: owner.token })).body.results[0].id;
    await t.request('POST', `/api/row_comments/${tableId}/${rowId}/`, { token: member.token, body: { message: mention(daily) } });
    await sender.run(new Date(midnight.getTime() + 60_000));
    expect(mailsTo(daily.email)).toHaveLength(1);
    await sender.run(new Date(midnight.getTime() + 24 * 3_600_000));
    expect(mailsTo(daily.email)).toHaveLength(2);
  });

  it('keeps a mail the SMTP server refused and sends it at a later run', async () => {
    const sender = t.app.get(NotificationEmailSender);
    const workspace = (await t.request('GET', '/api/workspaces/', { token: owner.token })).body[0].id;
    const invitee = await signUp(t, 'Late');
    smtp.refused.add(owner.email);
    const before = mailsTo(owner.email).length;
    await addMember(t, owner, invitee, workspace);
    await sender.run();
    expect(mailsTo(owner.email)).toHaveLength(before);
    smtp.refused.delete(owner.email);
    await sender.run();
    const mail = mailsTo(owner.email)[before];
    expect(mail.subject).toBe('You have 1 new notification - Baserow');
    expect(mail.text).toContain('Late accepted your invitation to collaborate on');
    await sender.run();
    expect(mailsTo(owner.email)).toHaveLength(before + 1);
  });

  it('mails a user once when two senders (two instances) take their mail at the same time', async () => {
    const sender = t.app.get(NotificationEmailSender);
    const workspace = (await t.request('GET', '/api/workspaces/', { token: owner.token })).body[0].id;
    const invitee = await signUp(t, 'Twice');
    smtp.refused.add(owner.email);
    const before = mailsTo(owner.email).length;
    await addMember(t, owner, invitee, workspace);
    smtp.refused.delete(owner.email);
    // The claim is in the database: a second sender finds the user taken, as another instance would.
    await Promise.all([sender.sendTo(owner.id), sender.sendTo(owner.id), sender.sendTo(owner.id)]);
    expect(mailsTo(owner.email)).toHaveLength(before + 1);
    expect(mailsTo(owner.email)[before].text).toContain('Twice accepted your invitation');
  });
});
