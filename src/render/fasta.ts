/** FASTA records: a `>` header line, then the sequence in lines of 60 residues. */

const LINE = 60;

export function fastaRecord(header: string, sequence: string): string {
  let out = `>${header}\n`;
  for (let i = 0; i < sequence.length; i += LINE) out += `${sequence.slice(i, i + LINE)}\n`;
  return out;
}
