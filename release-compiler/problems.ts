/**
 * Input problems, collected rather than thrown: the compiler reads every input,
 * reports every problem with its file and line, then exits non-zero. Warnings are collected
 * beside them: the release compiles, but serves less than complete inputs would give.
 */
interface Problem {
  file: string;
  /** 1-based line number; 0 when the problem concerns the whole file. */
  line: number;
  message: string;
}

export class Problems {
  readonly list: Problem[] = [];
  readonly warnings: Problem[] = [];

  report(file: string, line: number, message: string): void {
    this.list.push({ file, line, message });
  }

  warn(file: string, line: number, message: string): void {
    this.warnings.push({ file, line, message });
  }

  /** Adds another collection's problems and warnings after these (work done alongside, reported in a fixed order). */
  append(other: Problems): void {
    // One at a time: a spread of a million problems would overflow the stack.
    for (const p of other.list) this.list.push(p);
    for (const w of other.warnings) this.warnings.push(w);
  }

  /**
   * Puts the problems reported since the `from`-th in line order, file by file (in the order
   * the files were first named here), keeping the order of those of one line: for a file read a
   * batch of rows at a time (the readers' `…Batches`), whose reader reports a batch's problems
   * as it cuts the batch, before the rows are taken and theirs reported. Called once a batch is
   * taken, with the count before it, it gives the order of reading a row at a time.
   */
  inLineOrder(from: number): void {
    if (this.list.length - from < 2) return;
    const rank = new Map<string, number>();
    for (let i = from; i < this.list.length; i++) if (!rank.has(this.list[i].file)) rank.set(this.list[i].file, rank.size);
    // Array.prototype.sort is stable: problems of one line keep the order they were reported in.
    const sorted = this.list.slice(from).sort((a, b) => rank.get(a.file)! - rank.get(b.file)! || a.line - b.line);
    for (let i = 0; i < sorted.length; i++) this.list[from + i] = sorted[i];
  }

  get count(): number {
    return this.list.length;
  }

  /** One line per problem, `file:line: message`, in the order reported. */
  format(limit = 200): string {
    const shown = this.list.slice(0, limit).map(formatProblem);
    if (this.list.length > limit) shown.push(`… and ${this.list.length - limit} more problems`);
    return shown.join("\n");
  }
}

function formatProblem(p: Problem): string {
  return p.line > 0 ? `${p.file}:${p.line}: ${p.message}` : `${p.file}: ${p.message}`;
}

/** `file: warning: message`, one line per warning. */
export function formatWarning(w: Problem): string {
  return formatProblem({ ...w, message: `warning: ${w.message}` });
}

/** Thrown when problems make it pointless to go on (after a reader has reported them). */
export class InputRejected extends Error {
  constructor(readonly problems: Problems) {
    super(`${problems.count} input problem(s):\n${problems.format()}`);
  }
}
