import { Slots } from '../src/users/password-hasher';

/** The bound on password cell hashes in flight (one per thread of libuv's pool). */
describe('Slots', () => {
  it('runs at most its size at once, every task to its own result, in arrival order', async () => {
    const slots = new Slots(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const release: (() => void)[] = [];
    const results = Array.from({ length: 10 }, (_, i) =>
      slots.run(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await new Promise<void>((resolve) => release.push(resolve));
        running--;
        return `done ${i}`;
      }),
    );
    // Release the running tasks one at a time until all have run.
    while (started.length < 10 || release.length) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(running).toBeLessThanOrEqual(3);
      release.shift()?.();
    }
    expect(await Promise.all(results)).toEqual(Array.from({ length: 10 }, (_, i) => `done ${i}`));
    expect(most).toBe(3);
    expect(started).toEqual([...Array(10).keys()]);
  });

  it('frees the slot of a task that fails', async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(slots.run(() => Promise.resolve(7))).resolves.toBe(7);
  });
});
