/**
 * `GET /api/downloads/`: the release-wide files, each `{name, url, format, description}`: every
 * genome's proteins (and cDNA when the release has it), every level's HOG table, and the whole
 * release's HOGs as orthoXML. Files of a genome pair and of one HOG are named by the URL
 * patterns of the OpenAPI document rather than listed (there are genomes² pairs).
 */
import type { Links } from "../render/links.js";
import { segment } from "../render/links.js";
import type { Release } from "../release/release.js";
import type { SequenceRow } from "../../release-format/format.js";

export interface DownloadItem {
  name: string;
  url: string;
  format: string;
  description: string;
}

export async function downloadCatalog(release: Release, links: Links): Promise<DownloadItem[]> {
  const { genomes, taxonomy, hogLists, tables } = release.manifest;
  // A release has cDNA for all its proteins or for none: the first sequence row tells.
  const hasCdna = tables.sequences.rows > 0 && (await release.row<SequenceRow>(tables.sequences, 0)).cdna !== "";
  const items: DownloadItem[] = [
    {
      name: "hogs.orthoxml.gz",
      url: links.api("/downloads/hogs.orthoxml.gz"),
      format: "orthoxml+gzip",
      description: "Every HOG of the release, as one OrthoXML 0.5 document.",
    },
  ];
  for (const g of genomes) {
    items.push({ name: `${g.code}.fa.gz`, url: links.api(`/downloads/genome/${g.code}.fa.gz`), format: "fasta+gzip", description: `Proteins of ${g.species}.` });
    if (hasCdna) items.push({ name: `${g.code}.cdna.fa.gz`, url: links.api(`/downloads/genome/${g.code}.cdna.fa.gz`), format: "fasta+gzip", description: `cDNA of ${g.species}.` });
  }
  taxonomy.names.forEach((name, level) => {
    if (!hogLists.levels[level]?.[1]) return;
    items.push({
      name: `hogs/${name}.tsv.gz`,
      url: links.api(`/downloads/hogs/${segment(name)}.tsv.gz`),
      format: "tsv+gzip",
      description: `The ${hogLists.levels[level][1]} HOGs on ${name}, with their members.`,
    });
  });
  return items;
}
