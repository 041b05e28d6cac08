/**
 * Strings kept for the whole compile. V8 cuts a substring (split, slice) as a view into its
 * parent, and a line from the line reader is a view into the read buffer: an id kept as cut
 * keeps kilobytes of input text alive. Kept strings are copied (unique ones) or pooled
 * (repeated ones: sources, GO ids, chromosomes), so they own their characters.
 */

/** A copy of `s` that shares no memory with the text it was cut from. */
export function ownString(s: string): string {
  return s.length === 0 ? "" : Buffer.from(s, "utf8").toString("utf8");
}

/** One owned instance per distinct value; for values that repeat across many rows. */
export class StringPool {
  private readonly pool = new Map<string, string>();

  get(s: string): string {
    let kept = this.pool.get(s);
    if (kept === undefined) {
      kept = ownString(s);
      this.pool.set(kept, kept);
    }
    return kept;
  }
}
