/**
 * Progress of long work (a publish's uploads, a compile's stages): on a terminal, one live
 * line per stage (a bar, items and bytes done, rate, time left, retries so far), redrawn at
 * most ten times a second; elsewhere (a log, CI) nothing but the one summary line each stage
 * ends with.
 */

export interface Stage {
  /** `items` more done, `bytes` of them. */
  advance(items: number, bytes?: number): void;
  /** One more failed attempt that is being retried. */
  retried(): void;
  /** Ends the stage with its summary line. */
  done(summary: string): void;
}

export interface Progress {
  stage(label: string, total: { items: number; bytes?: number; unit: string }): Stage;
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const clock = (seconds: number): string => {
  if (!Number.isFinite(seconds)) return "--:--";
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/**
 * `log` takes each stage's summary line; the live bar goes to `terminal` when it is a TTY
 * (and is cleared before the summary is logged).
 */
export function createProgress(log: (line: string) => void, terminal: NodeJS.WriteStream | undefined = process.stderr): Progress {
  const live = Boolean(terminal?.isTTY);
  return {
    stage(label, total) {
      const started = performance.now();
      let items = 0;
      let bytes = 0;
      let retries = 0;
      let drawn = 0;
      const draw = (force = false) => {
        if (!live) return;
        const now = performance.now();
        if (!force && now - drawn < 100) return;
        drawn = now;
        const seconds = (now - started) / 1000;
        const share = total.bytes ? bytes / total.bytes : total.items ? items / total.items : 1;
        const width = 24;
        const filled = Math.min(width, Math.round(share * width));
        const rate = total.bytes ? `${mb(bytes / Math.max(seconds, 1e-3))}/s` : `${(items / Math.max(seconds, 1e-3)).toFixed(0)} ${total.unit}/s`;
        const left = share > 0 ? (seconds / share) * (1 - share) : Infinity;
        const parts = [
          `${label.padEnd(8)} [${"#".repeat(filled)}${".".repeat(width - filled)}]`,
          `${items}/${total.items} ${total.unit}`,
          ...(total.bytes ? [`${mb(bytes)} of ${mb(total.bytes)}`] : []),
          rate,
          `${clock(left)} left`,
          ...(retries ? [`${retries} retried`] : []),
        ];
        terminal!.write(`\r\x1b[K${parts.join("  ")}`);
      };
      draw(true);
      return {
        advance(n, b = 0) {
          items += n;
          bytes += b;
          draw();
        },
        retried() {
          retries += 1;
          draw();
        },
        done(summary) {
          if (live) terminal!.write("\r\x1b[K");
          const seconds = (performance.now() - started) / 1000;
          log(`${summary} (${seconds.toFixed(1)} s${retries ? `, ${retries} attempts retried` : ""})`);
        },
      };
    },
  };
}

/** No progress at all (tests, library use). */
export const silentProgress: Progress = { stage: () => ({ advance() {}, retried() {}, done() {} }) };
