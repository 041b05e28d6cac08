/**
 * Cuts the text of an orthoXML `<groups>` element into runs of whole top-level groups, so
 * that worker threads can parse the families (readers/orthoxml.ts `parseOrthoXmlRun`) while
 * this thread only finds where each top-level element ends.
 *
 * Written by hand because no XML tokenizer we have reports where an element ends without also
 * building it, which is the work this hands to the workers. It knows just enough XML to find
 * element ends: comments, CDATA, processing instructions, tags with quoted attribute values.
 * It checks nothing else (the workers' parse does): on anything it does not expect (a
 * declaration, an end tag without its start, the end of the text inside an element, something
 * after the root's end) it gives up, and the caller reads the file on one thread.
 */

/** Whole top-level elements of `<groups>` and the text between them. */
export interface GroupRun {
  text: string;
  /** Top-level `orthologGroup` and `paralogGroup` elements in it, each a family. */
  groups: number;
}

/** The run of `<groups>` next, or the end: `true` when the document ended as expected, `false` when cutting gave up. */
export type RunOrEnd = GroupRun | boolean;

const GT = 62; // >
const SLASH = 47;
/** The rest of a start tag, to its `>`: attribute values may hold `>`. */
const TAG_END = /(?:[^"'>]|"[^"]*"|'[^']*')*>/y;

/** Where `close` ends, searched from `from`; -1 when the text does not hold it yet. */
function after(text: string, close: string, from: number): number {
  const found = text.indexOf(close, from);
  return found < 0 ? -1 : found + close.length;
}

const localName = (name: string) => name.slice(name.indexOf(":") + 1);
const isGroup = (name: string) => {
  const local = localName(name);
  return local === "orthologGroup" || local === "paralogGroup";
};

/** The name of the tag opening at `at` (after `<` or `</`). */
function tagName(text: string, at: number, end: number): string {
  let i = at;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === GT || c === SLASH || c === 32 || c === 9 || c === 10 || c === 13) break;
    i++;
  }
  return text.slice(at, i);
}

/**
 * Runs of about `runChars` characters (each ends where a top-level element does) from `source`,
 * the text after `<groups ...>`; then `true` once `</groups>`, the root's end tag `</rootName>`
 * and nothing but whitespace, comments and processing instructions after it have been seen.
 */
export async function* groupRuns(source: AsyncIterable<string>, rootName: string, runChars: number): AsyncGenerator<RunOrEnd> {
  const chunks = source[Symbol.asyncIterator]();
  /** The text not scanned yet, from where the current run starts or the last chunk began. */
  let text = "";
  let at = 0;
  let runStart = 0;
  /** The current run's text before `text` (so that a long run is not copied at every chunk). */
  let pieces: string[] = [];
  let groups = 0;
  let depth = 0;
  /** 0 inside `<groups>`, 1 after `</groups>`, 2 after the root's end tag. */
  let closed = 0;
  let ended = false;

  /** Reads more text; false at the end of the source. The text from `at` on is kept for scanning. */
  const more = async (): Promise<boolean> => {
    if (ended) return false;
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      return false;
    }
    if (at > runStart) pieces.push(text.slice(runStart, at));
    text = text.slice(at) + next.value;
    at = runStart = 0;
    return true;
  };
  /** The run up to `to` in `text`; the next starts at `from`. */
  const cut = (to: number, from = to): GroupRun => {
    pieces.push(text.slice(runStart, to));
    const run = { text: pieces.join(""), groups };
    pieces = [];
    groups = 0;
    runStart = from;
    return run;
  };
  const runLength = (to: number) => to - runStart + pieces.reduce((n, p) => n + p.length, 0);

  for (;;) {
    const lt = text.indexOf("<", at);
    if (lt < 0) {
      if (closed > 0 && text.slice(at).trim() !== "") return yield false;
      at = text.length;
      if (!(await more())) return yield closed === 2;
      continue;
    }
    if (closed > 0 && text.slice(at, lt).trim() !== "") return yield false;
    // A markup start needs a few characters to tell what it is.
    if (text.length - lt < 9 && !ended) {
      at = lt;
      await more();
      continue;
    }
    const next = text.charCodeAt(lt + 1);
    /** Where a comment, CDATA section or processing instruction ends; -1 before it is all read. */
    let end = 0;
    if (text.startsWith("<!--", lt)) end = after(text, "-->", lt + 4);
    else if (text.startsWith("<![CDATA[", lt) && closed === 0) end = after(text, "]]>", lt + 9);
    else if (next === 63 /* ? */) end = after(text, "?>", lt + 2);
    else if (next === 33 /* ! */) return yield false; // a declaration has no place inside <groups>
    else if (next === SLASH) {
      const gt = text.indexOf(">", lt);
      if (gt < 0) {
        at = lt;
        if (!(await more())) return yield false;
        continue;
      }
      if (depth > 0) {
        depth--;
        at = gt + 1;
        if (depth === 0 && runLength(at) >= runChars) yield cut(at);
        continue;
      }
      const name = tagName(text, lt + 2, gt);
      if (closed === 0 && localName(name) === "groups") {
        if (lt > runStart || pieces.length > 0) yield cut(lt);
        closed = 1;
      } else if (closed === 1 && name === rootName) closed = 2;
      else return yield false;
      at = runStart = gt + 1;
      continue;
    } else {
      if (closed > 0) return yield false;
      // A start tag: its end is the first > outside quoted attribute values.
      TAG_END.lastIndex = lt + 1;
      if (!TAG_END.test(text)) {
        at = lt;
        if (!(await more())) return yield false;
        continue;
      }
      const i = TAG_END.lastIndex - 1;
      if (depth === 0 && isGroup(tagName(text, lt + 1, i))) groups++;
      at = i + 1;
      if (text.charCodeAt(i - 1) !== SLASH) depth++;
      else if (depth === 0 && runLength(at) >= runChars) yield cut(at);
      continue;
    }
    // A comment, CDATA section or processing instruction: skipped whole.
    if (end < 0) {
      at = lt;
      if (!(await more())) return yield false;
      continue;
    }
    at = end;
  }
}
