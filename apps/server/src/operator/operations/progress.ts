// A progress line for long operator commands: redrawn in place on a terminal (at most ten times a second),
// and one line per finished step when the output is a file or a pipe.

export class ProgressLine {
  private done = 0;
  private drawn = 0;
  private readonly tty: boolean;

  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WriteStream,
  ) {
    this.tty = !!out.isTTY;
  }

  /** `n` more units done while working on `label`. */
  advance(n: number, label: string): void {
    this.done += n;
    if (!this.tty) return;
    const now = Date.now();
    if (now - this.drawn < 100 && this.done < this.total) return;
    this.drawn = now;
    const share = this.total === 0 ? 1 : Math.min(1, this.done / this.total);
    const width = 30;
    const filled = Math.round(share * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    const figures = `${this.done.toLocaleString('en')}/${this.total.toLocaleString('en')}`;
    this.out.write(`\r\x1b[2K${bar} ${String(Math.floor(share * 100)).padStart(3)}%  ${figures}  ${label}`);
  }

  /** A step is finished: its line stays (on a terminal, under the bar, which is drawn again on the next advance). */
  note(text: string): void {
    this.out.write(this.tty ? `\r\x1b[2K${text}\n` : `${text}\n`);
    this.drawn = 0;
  }

  finish(): void {
    if (this.tty) this.out.write('\r\x1b[2K');
  }
}
