/**
 * Minimal Newick support for the simulator's built-in species tree: parse a tree with named
 * (optionally single-quoted) nodes and no branch lengths, and format one back. Names that are
 * not plain Newick labels (spaces, punctuation) are written in single quotes, `'` doubled.
 */

export interface NewickNode {
  name: string;
  children: NewickNode[];
}

export function parseNewick(text: string): NewickNode {
  let pos = 0;
  const skip = (): void => {
    while (pos < text.length && /\s/.test(text[pos])) pos++;
  };
  const fail = (what: string): never => {
    throw new Error(`newick: ${what} at offset ${pos}`);
  };
  const readName = (): string => {
    skip();
    if (text[pos] === "'") {
      let name = "";
      pos++;
      for (;;) {
        if (pos >= text.length) fail("unterminated quoted name");
        if (text[pos] === "'") {
          if (text[pos + 1] === "'") {
            name += "'";
            pos += 2;
            continue;
          }
          pos++;
          return name;
        }
        name += text[pos++];
      }
    }
    const start = pos;
    while (pos < text.length && !/[\s(),:;']/.test(text[pos])) pos++;
    return text.slice(start, pos);
  };
  const readNode = (): NewickNode => {
    skip();
    const children: NewickNode[] = [];
    if (text[pos] === "(") {
      pos++;
      for (;;) {
        children.push(readNode());
        skip();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === ")") {
          pos++;
          break;
        }
        fail("expected , or )");
      }
    }
    const name = readName();
    skip();
    if (text[pos] === ":") fail("branch lengths are not supported");
    return { name, children };
  };
  const root = readNode();
  skip();
  if (text[pos] !== ";") fail("expected ;");
  return root;
}

/** A Newick label for `name`: unchanged when safe, else single-quoted. */
export function newickLabel(name: string): string {
  return /^[A-Za-z0-9_.\-]+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

export function formatNewick(node: NewickNode): string {
  const format = (n: NewickNode): string =>
    n.children.length === 0 ? newickLabel(n.name) : `(${n.children.map(format).join(",")})${newickLabel(n.name)}`;
  return `${format(node)};`;
}
