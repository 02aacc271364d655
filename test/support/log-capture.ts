import { Writable } from 'node:stream';

/** A pino destination that keeps every JSON line written to it, for the log suites. */
export class LogCapture extends Writable {
  readonly text: string[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text.push(chunk.toString());
    callback();
  }

  /** Every line written so far, parsed. */
  get lines(): Record<string, any>[] {
    return this.text.join('').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line));
  }

  /** Everything written so far, as one string (to look for leaked secrets). */
  get all(): string {
    return this.text.join('');
  }

  /**
   * The lines matching `match` once there is one: a request's line is written when its response
   * has been handed to the socket, which the client may see a moment earlier.
   */
  async waitFor(match: (line: Record<string, any>) => boolean): Promise<Record<string, any>[]> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const found = this.lines.filter(match);
      if (found.length) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('no such log line was written');
  }
}
