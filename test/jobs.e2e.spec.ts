import { JobState } from '../src/jobs/job.entity';
import { JobRepository } from '../src/jobs/job.repository';
import { signUp, SignedUp, startApp, TestApp } from './support/app';

/** Jobs (baserow-rest.md §4.3). No job type starts jobs yet, so rows are planted directly. */
describe('Jobs (baserow-rest.md §4.3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const JOB_MISSING = { error: 'ERROR_JOB_DOES_NOT_EXIST', detail: 'The requested job does not exist.' };

  async function plant(user: SignedUp, state: JobState, data: Record<string, unknown> = {}) {
    return t.app.get(JobRepository).create({ userId: user.id, type: 'duplicate_application', state, progressPercentage: state === 'finished' ? 100 : 10, humanReadableError: state === 'failed' ? 'Boom' : '', data });
  }
  const listJobs = (user: SignedUp, query = '') => t.request('GET', `/api/jobs/${query}`, { token: user.token });
  const ids = (body: { jobs: { id: number }[] }) => body.jobs.map((j) => j.id);

  it('answers {"jobs": []} for a user without jobs, with the web client’s filter too', async () => {
    const user = await signUp(t);
    const res = await listJobs(user);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jobs: [] });
    const filtered = await listJobs(user, '?states=!finished,!failed,!cancelled');
    expect(filtered.status).toBe(200);
    expect(filtered.body).toEqual({ jobs: [] });
  });

  it('lists only the user’s jobs, newest first, with the job keys', async () => {
    const user = await signUp(t);
    const other = await signUp(t);
    const a = await plant(user, 'pending', { original_application: null, duplicated_application: null });
    const b = await plant(user, 'finished');
    await plant(other, 'pending');
    const res = await listJobs(user);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([b.id, a.id]);
    expect(res.body.jobs[1]).toEqual({
      id: a.id,
      type: 'duplicate_application',
      progress_percentage: 10,
      state: 'pending',
      human_readable_error: '',
      original_application: null,
      duplicated_application: null,
    });
  });

  it('filters by states (with ! exclusions) and by job_ids', async () => {
    const user = await signUp(t);
    const pending = await plant(user, 'pending');
    const started = await plant(user, 'started');
    const finished = await plant(user, 'finished');
    const failed = await plant(user, 'failed');
    const cancelled = await plant(user, 'cancelled');
    expect(ids((await listJobs(user, '?states=!finished,!failed,!cancelled')).body)).toEqual([started.id, pending.id]);
    expect(ids((await listJobs(user, '?states=failed,finished')).body)).toEqual([failed.id, finished.id]);
    expect(ids((await listJobs(user, '?states=!pending')).body)).toEqual([cancelled.id, failed.id, finished.id, started.id]);
    expect(ids((await listJobs(user, `?job_ids=${pending.id},${failed.id},999999`)).body)).toEqual([failed.id, pending.id]);
    expect(ids((await listJobs(user, `?job_ids=${pending.id},${failed.id}&states=failed`)).body)).toEqual([failed.id]);
  });

  it('rejects bad states and job_ids with ERROR_QUERY_PARAMETER_VALIDATION', async () => {
    const user = await signUp(t);
    const state = await listJobs(user, '?states=pending,bogus');
    expect(state.status).toBe(400);
    expect(state.body).toEqual({
      error: 'ERROR_QUERY_PARAMETER_VALIDATION',
      detail: { states: [{ error: 'State bogus is not a valid state. Valid states are: pending, started, finished, failed, cancelled.', code: 'invalid' }] },
    });
    const negated = await listJobs(user, '?states=!done');
    expect(negated.status).toBe(400);
    expect(negated.body.detail.states[0].error).toMatch(/^State done is not a valid state\./);
    const jobIds = await listJobs(user, '?job_ids=1,abc');
    expect(jobIds.status).toBe(400);
    expect(jobIds.body).toEqual({
      error: 'ERROR_QUERY_PARAMETER_VALIDATION',
      detail: { job_ids: [{ error: 'Job id abc is not a valid integer.', code: 'invalid' }] },
    });
    const blank = await listJobs(user, '?states=');
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ error: 'ERROR_QUERY_PARAMETER_VALIDATION', detail: { states: [{ error: 'This field may not be blank.', code: 'blank' }] } });
  });

  it('gets one job; another user’s job or an unknown id is 404 ERROR_JOB_DOES_NOT_EXIST', async () => {
    const user = await signUp(t);
    const other = await signUp(t);
    const job = await plant(user, 'failed');
    const res = await t.request('GET', `/api/jobs/${job.id}/`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: job.id, type: 'duplicate_application', progress_percentage: 10, state: 'failed', human_readable_error: 'Boom' });
    const foreign = await t.request('GET', `/api/jobs/${job.id}/`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(JOB_MISSING);
    const missing = await t.request('GET', '/api/jobs/959595/', { token: user.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(JOB_MISSING);
    const anonymous = await t.request('GET', `/api/jobs/${job.id}/`);
    expect(anonymous.status).toBe(401);
  });

  it('cancels a running job; an ended one cannot be cancelled; others’ jobs are not found', async () => {
    const user = await signUp(t);
    const other = await signUp(t);
    const running = await plant(user, 'started');
    const foreign = await t.request('POST', `/api/jobs/${running.id}/cancel/`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(JOB_MISSING);
    const res = await t.request('POST', `/api/jobs/${running.id}/cancel/`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: running.id, state: 'cancelled' });
    expect((await t.request('GET', `/api/jobs/${running.id}/`, { token: user.token })).body.state).toBe('cancelled');
    for (const state of ['finished', 'failed', 'cancelled'] as const) {
      const ended = await plant(user, state);
      const refused = await t.request('POST', `/api/jobs/${ended.id}/cancel/`, { token: user.token });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: 'ERROR_JOB_NOT_CANCELLABLE', detail: 'The job cannot be cancelled' });
      expect((await t.request('GET', `/api/jobs/${ended.id}/`, { token: user.token })).body.state).toBe(state);
    }
    const missing = await t.request('POST', '/api/jobs/969696/cancel/', { token: user.token });
    expect(missing.status).toBe(404);
  });
});
