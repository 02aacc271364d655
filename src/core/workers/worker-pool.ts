import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { TransferListItem, Worker } from 'node:worker_threads';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ApiError } from '../errors/api-error';
import { moduleFile, spawnWorker } from './spawn-worker';
import type { SerializedError, TaskAnswer, TaskRequest } from './task-worker';

/** A function a module of the app exports, run in a worker: the module's file (see moduleFile) and the export's name. */
export interface WorkerTask {
  file: string;
  name: string;
}

/** What one task may spend: wall time from its start in a worker, and the worker's heap. */
export interface WorkerBudget {
  timeoutMs: number;
  maxMemoryMb: number;
}

/** A task stopped for overrunning its budget (`time` or `memory`); its worker was terminated. */
export class WorkerBudgetExceeded extends Error {
  constructor(readonly budget: 'time' | 'memory') {
    super(budget === 'time' ? 'The task took longer than its time budget.' : 'The task needed more memory than its budget.');
  }
}

const TASK_WORKER = moduleFile(__dirname, 'task-worker');
/** An idle worker is stopped after this long (a warm one saves its start, ~50 ms, to the next task). */
const IDLE_MS = 30_000;

type Answer = { item: unknown } | { value: unknown } | { done: true };

/** One task on its way: answers arrive in order, one at a time (a stream's next item only once pulled). */
class Call {
  readonly id: number;
  slot: Slot | null = null;
  timer: NodeJS.Timeout | null = null;
  finished = false;
  private answers: Answer[] = [];
  private failure: unknown = null;
  private waiter: { resolve(answer: Answer): void; reject(error: unknown): void } | null = null;

  constructor(
    id: number,
    readonly task: WorkerTask,
    readonly args: unknown[],
    readonly budget: WorkerBudget,
    readonly transfer: TransferListItem[] = [],
  ) {
    this.id = id;
  }

  next(): Promise<Answer> {
    if (this.answers.length) return Promise.resolve(this.answers.shift()!);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  push(answer: Answer): void {
    if (this.waiter) {
      this.waiter.resolve(answer);
      this.waiter = null;
    } else this.answers.push(answer);
  }

  fail(error: unknown): void {
    if (this.failure) return;
    this.failure = error;
    this.finished = true;
    this.waiter?.reject(error);
    this.waiter = null;
  }
}

interface Slot {
  worker: Worker;
  maxMemoryMb: number;
  ready: boolean;
  call: Call | null;
  idle: NodeJS.Timeout | null;
}

/**
 * Worker threads for CPU-heavy pure functions (parsing an uploaded file, say), so that they never
 * run on the event loop that answers requests. A task is a function a module exports (given by
 * file and name); it runs in a worker whose heap is capped at the task's memory budget, and is
 * stopped (the worker terminated, the caller rejected with WorkerBudgetExceeded) when it overruns
 * its time budget or its heap. At most WORKER_THREADS tasks run at once; others wait their turn.
 * Idle workers are kept warm for a while, without keeping the process alive.
 *
 * `run` answers a task's value; `stream` yields the items of a task that answers a generator,
 * one item per message, the next asked for only once the caller took the last (large results
 * are deserialised a slice at a time, between other requests).
 */
@Injectable()
export class WorkerPool implements OnModuleDestroy {
  private readonly slots: Slot[] = [];
  private readonly queue: Call[] = [];
  private nextId = 1;
  private closed = false;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'workerThreads'>) {
    this.size = config.workerThreads;
  }

  readonly size: number;

  /** Workers started, running a task now; tasks waiting for a worker. */
  get stats(): { workers: number; busy: number; queued: number } {
    return { workers: this.slots.length, busy: this.slots.filter((slot) => slot.call).length, queued: this.queue.length };
  }

  /** Runs a task and answers its value (structured-cloned from the worker). */
  async run<T>(task: WorkerTask, args: unknown[], budget: WorkerBudget): Promise<T> {
    const call = this.enqueue(task, args, budget);
    try {
      const answer = await call.next();
      if (!('value' in answer)) throw new Error(`The worker task ${task.name} answered a stream: use stream().`);
      return answer.value as T;
    } finally {
      this.release(call);
    }
  }

  /**
   * Runs a task that answers a generator and yields its items; leaving the loop early stops the task.
   * `transfer`: buffers of the arguments moved to the worker, not copied (they are unusable here after).
   */
  async *stream<T>(task: WorkerTask, args: unknown[], budget: WorkerBudget, transfer: TransferListItem[] = []): AsyncGenerator<T> {
    const call = this.enqueue(task, args, budget, transfer);
    try {
      for (;;) {
        const answer = await call.next();
        if ('done' in answer) return;
        if (!('item' in answer)) throw new Error(`The worker task ${task.name} answered a value: use run().`);
        yield answer.item as T;
        call.slot?.worker.postMessage({ type: 'next', id: call.id } satisfies TaskRequest);
      }
    } finally {
      this.release(call);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.close();
  }

  /** Stops every worker; tasks running or waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const call of this.queue.splice(0)) call.fail(new Error('The worker pool is closed.'));
    await Promise.all(this.slots.splice(0).map((slot) => this.stop(slot, new Error('The worker pool is closed.'))));
  }

  private enqueue(task: WorkerTask, args: unknown[], budget: WorkerBudget, transfer: TransferListItem[] = []): Call {
    const call = new Call(this.nextId++, task, args, budget, transfer);
    if (this.closed) call.fail(new Error('The worker pool is closed.'));
    else {
      this.queue.push(call);
      this.dispatch();
    }
    return call;
  }

  /** A call its caller is done with: a task still running (a stream left early) is stopped with its worker. */
  private release(call: Call): void {
    const index = this.queue.indexOf(call);
    if (index >= 0) this.queue.splice(index, 1);
    if (call.timer) clearTimeout(call.timer);
    const slot = call.slot;
    if (slot && slot.call === call) {
      if (call.finished) this.idle(slot);
      else void this.stop(slot, null);
    }
    call.finished = true;
    this.dispatch();
  }

  private dispatch(): void {
    while (this.queue.length && !this.closed) {
      const call = this.queue[0];
      const slot = this.slots.find((s) => s.ready && !s.call && s.maxMemoryMb === call.budget.maxMemoryMb);
      if (!slot) {
        if (this.slots.length >= this.size) {
          // A worker idle with another heap cap makes room for one with this task's cap.
          const other = this.slots.find((s) => s.ready && !s.call);
          if (!other) return;
          void this.stop(other, null);
        }
        if (!this.slots.some((s) => !s.ready && s.maxMemoryMb === call.budget.maxMemoryMb)) this.spawn(call.budget.maxMemoryMb);
        return;
      }
      this.queue.shift();
      this.start(slot, call);
    }
  }

  private start(slot: Slot, call: Call): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    slot.call = call;
    call.slot = slot;
    slot.worker.ref();
    call.timer = setTimeout(() => {
      call.fail(new WorkerBudgetExceeded('time'));
      void this.stop(slot, null);
    }, call.budget.timeoutMs);
    slot.worker.postMessage({ type: 'call', id: call.id, file: call.task.file, name: call.task.name, args: call.args } satisfies TaskRequest, call.transfer);
  }

  private spawn(maxMemoryMb: number): void {
    // The young generation stays small: a task's garbage is collected early, not at tens of megabytes.
    const worker = spawnWorker(TASK_WORKER, {}, { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: Math.min(16, Math.max(4, Math.floor(maxMemoryMb / 16))) });
    const slot: Slot = { worker, maxMemoryMb, ready: false, call: null, idle: null };
    this.slots.push(slot);
    worker.on('message', (message: TaskAnswer | { ready: true }) => {
      if ('ready' in message) {
        slot.ready = true;
        this.idle(slot);
        this.dispatch();
        return;
      }
      const call = slot.call;
      if (!call || call.id !== message.id) return;
      if ('error' in message) call.fail(deserialize(message.error));
      else if ('value' in message) {
        call.finished = true;
        call.push({ value: message.value });
      } else if ('done' in message) {
        call.finished = true;
        call.push({ done: true });
      } else call.push({ item: message.item });
      if (call.finished && call.timer) clearTimeout(call.timer);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      this.lose(slot, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new WorkerBudgetExceeded('memory') : error);
    });
    worker.on('exit', () => this.lose(slot, new Error('A worker thread stopped.')));
  }

  /** A worker with no task: kept warm for a while, not keeping the process alive. */
  private idle(slot: Slot): void {
    slot.call = null;
    slot.worker.unref();
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = setTimeout(() => void this.stop(slot, null), IDLE_MS);
    slot.idle.unref();
  }

  /** Terminates a worker; its task, if any, fails with `error` (unless it already failed). */
  private async stop(slot: Slot, error: Error | null): Promise<void> {
    this.remove(slot);
    if (error) slot.call?.fail(error);
    slot.call = null;
    await slot.worker.terminate();
    this.dispatch();
  }

  /** A worker that failed or stopped: its task fails, the others go on, and a new one may start. */
  private lose(slot: Slot, error: Error): void {
    if (!this.remove(slot)) return;
    slot.call?.fail(error);
    slot.call = null;
    // One that could not even start fails what waits for a worker of its kind (else they would wait forever).
    if (!slot.ready) for (const call of this.queue.filter((c) => c.budget.maxMemoryMb === slot.maxMemoryMb)) call.fail(error);
    this.dispatch();
  }

  private remove(slot: Slot): boolean {
    const index = this.slots.indexOf(slot);
    if (index < 0) return false;
    this.slots.splice(index, 1);
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    return true;
  }
}

function deserialize(error: SerializedError): Error {
  if (error.api) return new ApiError(error.api.code, error.api.status, error.api.detail);
  return Object.assign(new Error(error.message), { name: error.name });
}
