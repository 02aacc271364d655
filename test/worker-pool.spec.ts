import { join } from 'node:path';
import { ApiError } from '../src/core/errors/api-error';
import { WorkerBudgetExceeded, WorkerPool } from '../src/core/workers/worker-pool';

const file = join(__dirname, 'support', 'worker-tasks.ts');
const task = (name: string) => ({ file, name });
const budget = { timeoutMs: 20_000, maxMemoryMb: 128 };

let pool: WorkerPool;
beforeAll(() => (pool = new WorkerPool({ workerThreads: 2 })));
afterAll(() => pool.close());

test('runs a task in a worker thread and answers its value', async () => {
  expect(await pool.run(task('add'), [2, 3], budget)).toBe(5);
});

test('a task that overruns its time budget is stopped, and the pool goes on', async () => {
  const error = await pool.run(task('spin'), [60_000], { ...budget, timeoutMs: 300 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WorkerBudgetExceeded);
  expect((error as WorkerBudgetExceeded).budget).toBe('time');
  expect(pool.stats.busy).toBe(0);
  expect(await pool.run(task('add'), [1, 1], budget)).toBe(2);
});

test('a task that needs more heap than its memory budget is stopped', async () => {
  const error = await pool.run(task('allocate'), [512], { ...budget, maxMemoryMb: 64 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WorkerBudgetExceeded);
  expect((error as WorkerBudgetExceeded).budget).toBe('memory');
  expect(await pool.run(task('add'), [1, 2], budget)).toBe(3);
});

test("a task's API error reaches the caller as the same API error", async () => {
  const error = await pool.run(task('refuse'), [], budget).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ code: 'ERROR_TEST_REFUSED', status: 418, detail: { why: 'because' } });
});

test('a generator streams its items in order; leaving early stops it', async () => {
  const items: number[] = [];
  for await (const item of pool.stream<number>(task('count'), [5], budget)) items.push(item);
  expect(items).toEqual([0, 1, 2, 3, 4]);
  for await (const item of pool.stream<number>(task('count'), [1_000_000], budget)) if (item === 2) break;
  expect(pool.stats.busy).toBe(0);
  expect(await pool.run(task('add'), [4, 4], budget)).toBe(8);
});

test('more tasks than threads wait their turn', async () => {
  const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => pool.run(task('add'), [n, n], budget)));
  expect(answers).toEqual([2, 4, 6, 8, 10]);
  expect(pool.stats.workers).toBeLessThanOrEqual(2);
});
