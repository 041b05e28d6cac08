/**
 * Newick trees (the species tree). Iterative parser, so that deep caterpillar trees cannot
 * overflow the call stack. Accepts quoted labels ('…' and "…", a doubled quote escapes it),
 * unquoted labels with inner spaces (`Danio rerio`, as written by OMA) and `_` kept as is,
 * branch lengths, `[…]` comments and whitespace anywhere between tokens.
 */
import type { TreeNode } from "../inputs.js";
import type { Problems } from "../problems.js";
import { BINARY_MESSAGE, fileLabel, ioMessage, readText } from "./lines.js";

/** Characters that end an unquoted label. */
const DELIMITERS = new Set(["(", ")", ",", ":", ";", "[", "]", "\n"]);
const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

class NewickError extends Error {
  constructor(
    readonly pos: number,
    message: string,
  ) {
    super(message);
  }
}

/** Maps a character offset to 1-based line and column. */
function locator(text: string): (pos: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return (pos) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: pos - starts[lo] + 1 };
  };
}

/** Parses one Newick tree; reports problems and returns undefined when the tree is unusable. */
export function parseNewick(text: string, file: string, problems: Problems): TreeNode | undefined {
  const where = locator(text);
  const report = (pos: number, message: string) => {
    const { line, column } = where(Math.min(pos, Math.max(text.length - 1, 0)));
    problems.report(file, line, `${message} (column ${column})`);
  };

  let i = 0;
  const n = text.length;

  const skipBlank = () => {
    for (;;) {
      while (i < n && /\s/.test(text[i])) i++;
      if (text[i] !== "[") return;
      const open = i;
      const close = text.indexOf("]", i + 1);
      if (close < 0) throw new NewickError(open, "unclosed comment: '[' without a matching ']'");
      i = close + 1;
    }
  };

  const readLabel = (): string => {
    const q = text[i];
    if (q === "'" || q === '"') {
      const open = i;
      let label = "";
      i++;
      for (;;) {
        if (i >= n) throw new NewickError(open, `unclosed quoted label: ${q} without a matching ${q}`);
        if (text[i] === q) {
          if (text[i + 1] === q) {
            label += q; // doubled quote = a literal quote
            i += 2;
            continue;
          }
          i++;
          return label;
        }
        label += text[i++];
      }
    }
    const start = i;
    while (i < n && !DELIMITERS.has(text[i])) i++;
    return text.slice(start, i).trim();
  };

  const startsLabel = (c: string | undefined) => c !== undefined && !DELIMITERS.has(c);

  const stack: TreeNode[] = [];
  const openPos: number[] = [];
  const leafPos = new Map<TreeNode, number>();
  /** The node just completed (a leaf or a closed `(…)`), waiting for its label, length, then `,` `)` `;`. */
  let current: TreeNode | undefined;
  let currentIsInternal = false;
  let labelled = false;
  let root: TreeNode | undefined;
  let sawSemicolon = false;

  const attach = (node: TreeNode, pos: number) => {
    if (stack.length > 0) stack[stack.length - 1].children.push(node);
    else if (root === undefined) root = node;
    else throw new NewickError(pos, "more than one tree: text after the end of the tree (missing '(' or ';'?)");
  };

  try {
    skipBlank();
    if (i >= n) {
      problems.report(file, 1, "empty Newick tree: the file has no tree");
      return undefined;
    }
    while (!sawSemicolon) {
      skipBlank();
      const c = text[i];
      if (current === undefined) {
        // Expecting a node: `(` opens a subtree, a label is a leaf.
        if (c === "(") {
          const node: TreeNode = { name: "", children: [] };
          attach(node, i);
          stack.push(node);
          openPos.push(i);
          i++;
        } else if (startsLabel(c) || c === "'" || c === '"') {
          const pos = i;
          const node: TreeNode = { name: readLabel(), children: [] };
          if (node.name === "") throw new NewickError(pos, "leaf without a name");
          attach(node, pos);
          leafPos.set(node, pos);
          current = node;
          currentIsInternal = false;
          labelled = true;
        } else if (c === undefined) {
          break; // end of input; unclosed parentheses are reported below
        } else if (c === "," || c === ")") {
          throw new NewickError(i, `leaf without a name before '${c}'`);
        } else {
          throw new NewickError(i, `unexpected '${c}'`);
        }
        continue;
      }
      // After a node.
      if ((startsLabel(c) || c === "'" || c === '"') && currentIsInternal && !labelled) {
        current.name = readLabel();
        labelled = true;
      } else if (c === ":") {
        if (current.branchLength !== undefined) throw new NewickError(i, "a second branch length for the same node");
        i++;
        skipBlank();
        const start = i;
        while (i < n && /[0-9eE+\-.]/.test(text[i])) i++;
        const raw = text.slice(start, i);
        if (!NUMBER_RE.test(raw)) {
          const shown = raw || text.slice(start, start + 10).split(/[,();\s]/)[0];
          throw new NewickError(start, `invalid branch length "${shown}"`);
        }
        current.branchLength = Number(raw);
        labelled = true; // a label after the length is not Newick
      } else if (c === ",") {
        if (stack.length === 0) throw new NewickError(i, "unexpected ',' outside parentheses");
        i++;
        current = undefined;
      } else if (c === ")") {
        if (stack.length === 0) throw new NewickError(i, "unbalanced parentheses: ')' without a matching '('");
        i++;
        current = stack.pop();
        openPos.pop();
        currentIsInternal = true;
        labelled = false;
      } else if (c === ";") {
        if (stack.length > 0) break;
        i++;
        sawSemicolon = true;
      } else if (c === undefined) {
        break;
      } else if (c === "(") {
        throw new NewickError(i, "unexpected '(' after a node (missing ','?)");
      } else {
        throw new NewickError(i, `unexpected '${c}'`);
      }
    }
    if (stack.length > 0) {
      const k = stack.length;
      throw new NewickError(openPos[0], `unbalanced parentheses: ${k} '(' not closed`);
    }
    if (!sawSemicolon) {
      report(n, "missing ';' at the end of the tree");
    } else {
      skipBlank();
      if (i < n) throw new NewickError(i, `trailing text after ';': "${text.slice(i, i + 20).trim()}"`);
    }
  } catch (err) {
    if (!(err instanceof NewickError)) throw err;
    report(err.pos, err.message);
    return undefined;
  }

  // Leaf names must be unique: they are species codes.
  const seen = new Map<string, number>();
  for (const [leaf, pos] of leafPos) {
    if (leaf.children.length > 0) continue;
    const first = seen.get(leaf.name);
    if (first === undefined) seen.set(leaf.name, pos);
    else {
      const at = where(first);
      const here = where(pos);
      problems.report(
        file,
        here.line,
        `duplicate leaf name "${leaf.name}" at column ${here.column} (first at line ${at.line}, column ${at.column})`,
      );
    }
  }
  return root;
}

export async function readNewick(path: string, problems: Problems): Promise<TreeNode | undefined> {
  let text: string;
  try {
    text = await readText(path);
  } catch (err) {
    problems.report(fileLabel(path), 0, ioMessage(err));
    return undefined;
  }
  if (text.includes("\0")) {
    problems.report(fileLabel(path), 0, BINARY_MESSAGE);
    return undefined;
  }
  return parseNewick(text, fileLabel(path), problems);
}
