import type { ProteinTable } from "../../release-compiler/derive/proteins.js";
import { IdIndex } from "../../release-compiler/packed-strings.js";

/** Proteins 1, 2, … described by `texts`, as the protein table holds them: each text's number, each text once ("" the first). */
export function described(texts: string[]): Pick<ProteinTable, "description" | "descriptions"> {
  const descriptions = IdIndex.of([""]);
  return { descriptions, description: Int32Array.from(texts, (d) => descriptions.add(d)) };
}
