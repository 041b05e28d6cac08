/**
 * What a simulated protein family "is": an archetype gives its description, its domains (with
 * real Pfam, InterPro and CATH/Gene3D accessions and the UniProt DOMAIN feature name where
 * UniProt uses one) and the GO terms its members may be annotated with (go-terms.ts).
 */
import type { Kingdom } from "./organisms.js";

export interface DomainKind {
  key: string;
  pfam: { id: string; name: string };
  interpro: { id: string; shortName: string; name: string };
  /** CATH/Gene3D superfamily, when the simulator knows its name. */
  cath?: { id: string; name: string };
  /** UniProt `FT DOMAIN` note, for domains UniProt annotates as DOMAIN features. */
  uniprotNote?: string;
  /** Typical length in residues. */
  length: number;
}

// prettier-ignore
export const DOMAIN_KINDS: Readonly<Record<string, DomainKind>> = {
  kinase: { key: "kinase", length: 260, uniprotNote: "Protein kinase",
    pfam: { id: "PF00069", name: "Pkinase" },
    interpro: { id: "IPR000719", shortName: "Prot_kinase_dom", name: "Protein kinase domain" },
    cath: { id: "3.30.200.20", name: "Phosphorylase Kinase, domain 1" } },
  trG: { key: "trG", length: 200, uniprotNote: "tr-type G",
    pfam: { id: "PF00009", name: "GTP_EFTU" },
    interpro: { id: "IPR000795", shortName: "T_Tr_GTP-bd_dom", name: "Translational (tr)-type GTP-binding domain" },
    cath: { id: "3.40.50.300", name: "P-loop containing nucleotide triphosphate hydrolases" } },
  abc: { key: "abc", length: 235, uniprotNote: "ABC transporter",
    pfam: { id: "PF00005", name: "ABC_tran" },
    interpro: { id: "IPR003439", shortName: "ABC_transporter-like_ATP-bd", name: "ABC transporter-like, ATP-binding domain" },
    cath: { id: "3.40.50.300", name: "P-loop containing nucleotide triphosphate hydrolases" } },
  trypsin: { key: "trypsin", length: 230, uniprotNote: "Peptidase S1",
    pfam: { id: "PF00089", name: "Trypsin" },
    interpro: { id: "IPR001254", shortName: "Trypsin_dom", name: "Serine proteases, trypsin domain" },
    cath: { id: "2.40.10.10", name: "Trypsin-like serine proteases" } },
  rrm: { key: "rrm", length: 78, uniprotNote: "RRM",
    pfam: { id: "PF00076", name: "RRM_1" },
    interpro: { id: "IPR000504", shortName: "RRM_dom", name: "RNA recognition motif domain" } },
  sh3: { key: "sh3", length: 60, uniprotNote: "SH3",
    pfam: { id: "PF00018", name: "SH3_1" },
    interpro: { id: "IPR001452", shortName: "SH3_domain", name: "SH3 domain" },
    cath: { id: "2.30.30.40", name: "SH3 Domains" } },
  sh2: { key: "sh2", length: 95, uniprotNote: "SH2",
    pfam: { id: "PF00017", name: "SH2" },
    interpro: { id: "IPR000980", shortName: "SH2", name: "SH2 domain" },
    cath: { id: "3.30.505.10", name: "SH2 domain" } },
  ph: { key: "ph", length: 105, uniprotNote: "PH",
    pfam: { id: "PF00169", name: "PH" },
    interpro: { id: "IPR001849", shortName: "PH_domain", name: "Pleckstrin homology domain" },
    cath: { id: "2.30.29.30", name: "Pleckstrin-homology domain (PH domain)/Phosphotyrosine-binding domain (PTB)" } },
  pdz: { key: "pdz", length: 85, uniprotNote: "PDZ",
    pfam: { id: "PF00595", name: "PDZ" },
    interpro: { id: "IPR001478", shortName: "PDZ", name: "PDZ domain" } },
  ig: { key: "ig", length: 95, uniprotNote: "Ig-like",
    pfam: { id: "PF07679", name: "I-set" },
    interpro: { id: "IPR007110", shortName: "Ig-like_dom", name: "Immunoglobulin-like domain" },
    cath: { id: "2.60.40.10", name: "Immunoglobulins" } },
  efhand: { key: "efhand", length: 35, uniprotNote: "EF-hand",
    pfam: { id: "PF13499", name: "EF-hand_7" },
    interpro: { id: "IPR002048", shortName: "EF_hand_dom", name: "EF-hand domain" },
    cath: { id: "1.10.238.10", name: "EF-hand" } },
  dead: { key: "dead", length: 175, uniprotNote: "Helicase ATP-binding",
    pfam: { id: "PF00270", name: "DEAD" },
    interpro: { id: "IPR011545", shortName: "DEAD/DEAH_box_helicase_dom", name: "DEAD/DEAH box helicase domain" },
    cath: { id: "3.40.50.300", name: "P-loop containing nucleotide triphosphate hydrolases" } },
  helicaseC: { key: "helicaseC", length: 160, uniprotNote: "Helicase C-terminal",
    pfam: { id: "PF00271", name: "Helicase_C" },
    interpro: { id: "IPR001650", shortName: "Helicase_C-like", name: "Helicase, C-terminal domain-like" },
    cath: { id: "3.40.50.300", name: "P-loop containing nucleotide triphosphate hydrolases" } },
  responseReg: { key: "responseReg", length: 115, uniprotNote: "Response regulatory",
    pfam: { id: "PF00072", name: "Response_reg" },
    interpro: { id: "IPR001789", shortName: "Sig_transdc_resp-reg_receiver", name: "Signal transduction response regulator, receiver domain" } },
  globin: { key: "globin", length: 145, uniprotNote: "Globin",
    pfam: { id: "PF00042", name: "Globin" },
    interpro: { id: "IPR000971", shortName: "Globin", name: "Globin" },
    cath: { id: "1.10.490.10", name: "Globins" } },
  bhlh: { key: "bhlh", length: 52, uniprotNote: "bHLH",
    pfam: { id: "PF00010", name: "HLH" },
    interpro: { id: "IPR011598", shortName: "bHLH_dom", name: "Myc-type, basic helix-loop-helix (bHLH) domain" },
    cath: { id: "4.10.280.10", name: "Helix-loop-helix DNA-binding domain" } },
  btb: { key: "btb", length: 70, uniprotNote: "BTB",
    pfam: { id: "PF00651", name: "BTB" },
    interpro: { id: "IPR000210", shortName: "BTB/POZ_dom", name: "BTB/POZ domain" },
    cath: { id: "3.30.710.10", name: "Potassium Channel Kv1.1; Chain A" } },
  aminotransferase: { key: "aminotransferase", length: 330,
    pfam: { id: "PF00155", name: "Aminotran_1_2" },
    interpro: { id: "IPR004839", shortName: "Aminotransferase_I/II_large", name: "Aminotransferase, class I/classII, large domain" },
    cath: { id: "3.40.640.10", name: "Type I PLP-dependent aspartate aminotransferase-like (Major domain)" } },
  gapdh: { key: "gapdh", length: 150,
    pfam: { id: "PF00044", name: "Gp_dh_N" },
    interpro: { id: "IPR020828", shortName: "GlycerAld_3-P_DH_NAD(P)-bd", name: "Glyceraldehyde 3-phosphate dehydrogenase, NAD(P) binding domain" },
    cath: { id: "3.40.50.720", name: "NAD(P)-binding Rossmann-like Domain" } },
  hsp70: { key: "hsp70", length: 380,
    pfam: { id: "PF00012", name: "HSP70" },
    interpro: { id: "IPR013126", shortName: "Hsp_70_fam", name: "Heat shock protein 70 family" },
    cath: { id: "3.90.640.10", name: "Actin, Chain A, domain 4" } },
  enolase: { key: "enolase", length: 290,
    pfam: { id: "PF00113", name: "Enolase_C" },
    interpro: { id: "IPR020810", shortName: "Enolase_C", name: "Enolase, C-terminal TIM barrel domain" },
    cath: { id: "3.20.20.120", name: "Enolase-like C-terminal domain" } },
  cpn60: { key: "cpn60", length: 480,
    pfam: { id: "PF00118", name: "Cpn60_TCP1" },
    interpro: { id: "IPR002423", shortName: "Cpn60/GroEL/TCP-1", name: "Chaperonin Cpn60/GroEL/TCP-1 family" },
    cath: { id: "3.50.7.10", name: "GroEL" } },
};

/** Which part of the tree of life a family of this archetype may be born in. */
type Scope = "any" | "eukaryote" | "prokaryote";

export interface Archetype {
  description: string;
  /** Domain kinds in N- to C-terminal order. */
  domains: readonly string[];
  /** GO terms its families draw 1–4 annotations from. */
  go: readonly string[];
  scope: Scope;
  weight: number;
}

// prettier-ignore
export const ARCHETYPES: readonly Archetype[] = [
  { description: "Serine/threonine-protein kinase", domains: ["kinase"], scope: "any", weight: 4,
    go: ["GO:0004674", "GO:0004672", "GO:0005737", "GO:0005634", "GO:0007165"] },
  { description: "Elongation factor-like GTPase", domains: ["trG"], scope: "any", weight: 1,
    go: ["GO:0005737", "GO:0005829", "GO:0003723"] },
  { description: "ABC transporter ATP-binding protein", domains: ["abc"], scope: "any", weight: 3,
    go: ["GO:0022857", "GO:0055085", "GO:0016020", "GO:0005886"] },
  { description: "Serine protease", domains: ["trypsin"], scope: "any", weight: 2,
    go: ["GO:0004252", "GO:0006508", "GO:0005576", "GO:0005615"] },
  { description: "RNA-binding protein", domains: ["rrm", "rrm"], scope: "eukaryote", weight: 2,
    go: ["GO:0003723", "GO:0005634", "GO:0005654"] },
  { description: "SH3 and SH2 domain-containing adapter protein", domains: ["sh3", "sh2"], scope: "eukaryote", weight: 1,
    go: ["GO:0005515", "GO:0007165", "GO:0005737", "GO:0005886"] },
  { description: "Pleckstrin homology domain-containing protein", domains: ["ph"], scope: "eukaryote", weight: 1,
    go: ["GO:0008289", "GO:0005886", "GO:0007165"] },
  { description: "PDZ domain-containing protein", domains: ["pdz", "pdz"], scope: "eukaryote", weight: 1,
    go: ["GO:0005515", "GO:0005886", "GO:0007155"] },
  { description: "Immunoglobulin superfamily receptor", domains: ["ig", "ig"], scope: "eukaryote", weight: 2,
    go: ["GO:0007155", "GO:0005886", "GO:0005576"] },
  { description: "Calcium-binding protein", domains: ["efhand", "efhand"], scope: "eukaryote", weight: 1,
    go: ["GO:0005509", "GO:0046872", "GO:0005737"] },
  { description: "ATP-dependent RNA helicase", domains: ["dead", "helicaseC"], scope: "any", weight: 2,
    go: ["GO:0003723", "GO:0016787", "GO:0005634"] },
  { description: "Response regulator protein", domains: ["responseReg"], scope: "prokaryote", weight: 2,
    go: ["GO:0003677", "GO:0003700", "GO:0007165"] },
  { description: "Globin-like protein", domains: ["globin"], scope: "any", weight: 1,
    go: ["GO:0046872", "GO:0005829"] },
  { description: "Basic helix-loop-helix transcription factor", domains: ["bhlh"], scope: "eukaryote", weight: 1,
    go: ["GO:0003700", "GO:0003677", "GO:0005634"] },
  { description: "BTB/POZ domain-containing protein", domains: ["btb"], scope: "eukaryote", weight: 1,
    go: ["GO:0005515", "GO:0042802", "GO:0005737"] },
  { description: "Aminotransferase", domains: ["aminotransferase"], scope: "any", weight: 1,
    go: ["GO:0016740", "GO:0005737", "GO:0005829"] },
  { description: "Glyceraldehyde-3-phosphate dehydrogenase-like protein", domains: ["gapdh"], scope: "any", weight: 1,
    go: ["GO:0016491", "GO:0005975", "GO:0005829"] },
  { description: "Heat shock 70 kDa protein", domains: ["hsp70"], scope: "any", weight: 1,
    go: ["GO:0042802", "GO:0005737", "GO:0005634"] },
  { description: "Enolase-like protein", domains: ["enolase"], scope: "any", weight: 1,
    go: ["GO:0000287", "GO:0005975", "GO:0005829"] },
  { description: "Chaperonin", domains: ["cpn60"], scope: "any", weight: 1,
    go: ["GO:0042802", "GO:0005739", "GO:0005737"] },
  { description: "Uncharacterized protein", domains: [], scope: "any", weight: 4,
    go: ["GO:0005737", "GO:0005575"] },
  { description: "Transmembrane protein", domains: [], scope: "any", weight: 2,
    go: ["GO:0016020", "GO:0005783", "GO:0005794"] },
  { description: "Cell division control protein", domains: [], scope: "eukaryote", weight: 1,
    go: ["GO:0007049", "GO:0051301", "GO:0005634"] },
  { description: "Lipase-like protein", domains: [], scope: "any", weight: 1,
    go: ["GO:0006629", "GO:0016787", "GO:0008289"] },
  { description: "Lectin-like protein", domains: [], scope: "any", weight: 1,
    go: ["GO:0030246", "GO:0005576"] },
  { description: "Mitochondrial carrier protein", domains: [], scope: "eukaryote", weight: 1,
    go: ["GO:0005739", "GO:0055085", "GO:0005215"] },
  { description: "Zinc finger protein", domains: [], scope: "eukaryote", weight: 2,
    go: ["GO:0008270", "GO:0003677", "GO:0005634"] },
  { description: "Ribosomal protein", domains: [], scope: "any", weight: 1,
    go: ["GO:0003735", "GO:0003723", "GO:0005829"] },
];

/** Archetypes allowed for a family born above genomes of the given kingdoms. */
export function archetypesFor(kingdoms: ReadonlySet<Kingdom>): Archetype[] {
  const eukaryotic = kingdoms.has("E");
  const prokaryotic = kingdoms.has("B") || kingdoms.has("A");
  return ARCHETYPES.filter(
    (a) =>
      a.scope === "any" ||
      (a.scope === "eukaryote" && eukaryotic && !prokaryotic) ||
      (a.scope === "prokaryote" && prokaryotic && !eukaryotic),
  );
}
