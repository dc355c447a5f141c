/** Lines of a text by offset in O(log n): every reader names lines, so no reader counts newlines from the start. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** 1-based line of an offset */
  line(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** 1-based column of an offset */
  column(offset: number): number {
    return offset - this.starts[this.line(offset) - 1]! + 1;
  }

  get count(): number {
    return this.starts.length;
  }
}
