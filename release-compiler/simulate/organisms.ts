/**
 * The simulator's built-in organisms: real UniProt/OMA 5-letter species codes with their NCBI
 * taxon ids and scientific names (as in UniProt's controlled vocabulary of species, speclist.txt;
 * RATNO is OMA's code for the rat, whose UniProt code is RAT), and the real topology that joins
 * them, with real clade names (NCBI Taxonomy names, named after the last common ancestor of the
 * species below them) and approximate clade ages in million years (TimeTree-like divergence
 * times; the simulator only uses them to scale branch lengths).
 *
 * `--genomes N` takes the first N organisms of ORGANISMS (ordered so that small N gives a
 * sensible tree: the first 12 are vertebrates, the first 20 span the three domains' model
 * organisms); species-tree.ts restricts CLADES to them.
 */

export type Kingdom = "E" | "B" | "A";

export interface Organism {
  /** UniProt/OMA species code, also the proteome file name. */
  code: string;
  /** NCBI Taxonomy id of the organism (the strain for microbes). */
  taxonId: number;
  scientificName: string;
  /** UniProt kingdom letter: Eukaryota, Bacteria, Archaea. */
  kingdom: Kingdom;
  /**
   * Number of chromosomes the simulated genome is laid out on: the real haploid number for the
   * well-known model organisms, 12 for other eukaryotes, 1 for prokaryotes.
   */
  chromosomes: number;
}

// prettier-ignore
const ORGANISM_ROWS: ReadonlyArray<[string, number, string, Kingdom, number]> = [
  ["HUMAN", 9606, "Homo sapiens", "E", 23],
  ["PANTR", 9598, "Pan troglodytes", "E", 24],
  ["GORGO", 9595, "Gorilla gorilla gorilla", "E", 24],
  ["PONAB", 9601, "Pongo abelii", "E", 24],
  ["MACMU", 9544, "Macaca mulatta", "E", 21],
  ["MOUSE", 10090, "Mus musculus", "E", 20],
  ["RATNO", 10116, "Rattus norvegicus", "E", 21],
  ["BOVIN", 9913, "Bos taurus", "E", 30],
  ["CANLF", 9615, "Canis lupus familiaris", "E", 39],
  ["CHICK", 9031, "Gallus gallus", "E", 39],
  ["XENTR", 8364, "Xenopus tropicalis", "E", 10],
  ["DANRE", 7955, "Danio rerio", "E", 25],
  ["DROME", 7227, "Drosophila melanogaster", "E", 4],
  ["CAEEL", 6239, "Caenorhabditis elegans", "E", 6],
  ["YEAST", 559292, "Saccharomyces cerevisiae (strain ATCC 204508 / S288c)", "E", 16],
  ["SCHPO", 284812, "Schizosaccharomyces pombe (strain 972 / ATCC 24843)", "E", 3],
  ["ARATH", 3702, "Arabidopsis thaliana", "E", 5],
  ["ORYSJ", 39947, "Oryza sativa subsp. japonica", "E", 12],
  ["ECOLI", 83333, "Escherichia coli (strain K12)", "B", 1],
  ["BACSU", 224308, "Bacillus subtilis (strain 168)", "B", 1],
  ["METJA", 243232, "Methanocaldococcus jannaschii (strain ATCC 43067 / DSM 2661 / JAL-1 / JCM 10045 / NBRC 100440)", "A", 1],
  ["HALSA", 64091, "Halobacterium salinarum (strain ATCC 700922 / JCM 11081 / NRC-1)", "A", 1],
  ["SULSO", 273057, "Sulfolobus solfataricus (strain ATCC 35092 / DSM 1617 / JCM 11322 / P2)", "A", 1],
  ["PYRFU", 186497, "Pyrococcus furiosus (strain ATCC 43587 / DSM 3638 / JCM 8422 / Vc1)", "A", 1],
  ["ARCFU", 224325, "Archaeoglobus fulgidus (strain ATCC 49558 / VC-16 / DSM 4304 / JCM 9628 / NBRC 100126)", "A", 1],
  ["METAC", 188937, "Methanosarcina acetivorans (strain ATCC 35395 / DSM 2834 / JCM 12185 / C2A)", "A", 1],
  ["NITMS", 436308, "Nitrosopumilus maritimus (strain SCM1)", "A", 1],
  ["PANPA", 9597, "Pan paniscus", "E", 24],
  ["MACFA", 9541, "Macaca fascicularis", "E", 21],
  ["CALJA", 9483, "Callithrix jacchus", "E", 12],
  ["FELCA", 9685, "Felis catus", "E", 19],
  ["SHEEP", 9940, "Ovis aries", "E", 27],
  ["HORSE", 9796, "Equus caballus", "E", 32],
  ["MONDO", 13616, "Monodelphis domestica", "E", 12],
  ["ORNAN", 9258, "Ornithorhynchus anatinus", "E", 12],
  ["TAKRU", 31033, "Takifugu rubripes", "E", 12],
  ["ORYLA", 8090, "Oryzias latipes", "E", 12],
  ["ANOGA", 7165, "Anopheles gambiae", "E", 3],
  ["APIME", 7460, "Apis mellifera", "E", 16],
  ["CANAL", 237561, "Candida albicans (strain SC5314 / ATCC MYA-2876)", "E", 8],
  ["NEUCR", 367110, "Neurospora crassa (strain ATCC 24698 / 74-OR23-1A / CBS 708.71 / DSM 1257 / FGSC 987)", "E", 7],
  ["MAIZE", 4577, "Zea mays", "E", 10],
  ["SOYBN", 3847, "Glycine max", "E", 20],
  ["DICDI", 44689, "Dictyostelium discoideum", "E", 6],
  ["PLAF7", 36329, "Plasmodium falciparum (isolate 3D7)", "E", 14],
  ["SALTY", 99287, "Salmonella typhimurium (strain LT2 / SGSC1412 / ATCC 700720)", "B", 1],
  ["PSEAE", 208964, "Pseudomonas aeruginosa (strain ATCC 15692 / DSM 22644 / CIP 104116 / JCM 14847 / LMG 12228 / 1C / PRS 101 / PAO1)", "B", 1],
  ["MYCTU", 83332, "Mycobacterium tuberculosis (strain ATCC 25618 / H37Rv)", "B", 1],
  ["SYNY3", 1111708, "Synechocystis sp. (strain PCC 6803 / Kazusa)", "B", 1],
  ["NOMLE", 61853, "Nomascus leucogenys", "E", 12],
  ["PAPAN", 9555, "Papio anubis", "E", 21],
  ["CHLSB", 60711, "Chlorocebus sabaeus", "E", 12],
  ["MICMU", 30608, "Microcebus murinus", "E", 12],
  ["OTOGA", 30611, "Otolemur garnettii", "E", 12],
  ["CAVPO", 10141, "Cavia porcellus", "E", 12],
  ["RABIT", 9986, "Oryctolagus cuniculus", "E", 22],
  ["MYOLU", 59463, "Myotis lucifugus", "E", 12],
  ["LOXAF", 9785, "Loxodonta africana", "E", 12],
  ["MELGA", 9103, "Meleagris gallopavo", "E", 12],
  ["TAEGU", 59729, "Taeniopygia guttata", "E", 12],
  ["ANOCA", 28377, "Anolis carolinensis", "E", 12],
  ["PELSI", 13735, "Pelodiscus sinensis", "E", 12],
  ["CHEMY", 8469, "Chelonia mydas", "E", 12],
  ["XENLA", 8355, "Xenopus laevis", "E", 12],
  ["LATCH", 7897, "Latimeria chalumnae", "E", 12],
  ["LEPOC", 7918, "Lepisosteus oculatus", "E", 12],
  ["TETNG", 99883, "Tetraodon nigroviridis", "E", 12],
  ["GASAC", 69293, "Gasterosteus aculeatus", "E", 12],
  ["CALMI", 7868, "Callorhinchus milii", "E", 12],
  ["PETMA", 7757, "Petromyzon marinus", "E", 12],
  ["CIOIN", 7719, "Ciona intestinalis", "E", 12],
  ["BRAFL", 7739, "Branchiostoma floridae", "E", 12],
  ["STRPU", 7668, "Strongylocentrotus purpuratus", "E", 12],
  ["AEDAE", 7159, "Aedes aegypti", "E", 3],
  ["TRICA", 7070, "Tribolium castaneum", "E", 10],
  ["BOMMO", 7091, "Bombyx mori", "E", 28],
  ["DAPPU", 6669, "Daphnia pulex", "E", 12],
  ["IXOSC", 6945, "Ixodes scapularis", "E", 12],
  ["CAEBR", 6238, "Caenorhabditis briggsae", "E", 12],
  ["BRUMA", 6279, "Brugia malayi", "E", 12],
  ["SCHMA", 6183, "Schistosoma mansoni", "E", 12],
  ["LOTGI", 225164, "Lottia gigantea", "E", 12],
  ["NEMVE", 45351, "Nematostella vectensis", "E", 12],
  ["HYDVU", 6087, "Hydra vulgaris", "E", 12],
  ["TRIAD", 10228, "Trichoplax adhaerens", "E", 12],
  ["AMPQE", 400682, "Amphimedon queenslandica", "E", 12],
  ["MONBE", 81824, "Monosiga brevicollis", "E", 12],
  ["DEBHA", 284592, "Debaryomyces hansenii (strain ATCC 36239 / CBS 767 / JCM 1990 / NBRC 0083 / IGC 2968)", "E", 12],
  ["KLULA", 284590, "Kluyveromyces lactis (strain ATCC 8585 / CBS 2359 / DSM 70799 / NBRC 1267 / NRRL Y-1140 / WM37)", "E", 6],
  ["ASHGO", 284811, "Ashbya gossypii (strain ATCC 10895 / CBS 109.51 / FGSC 9923 / NRRL Y-1056)", "E", 12],
  ["YARLI", 284591, "Yarrowia lipolytica (strain CLIB 122 / E 150)", "E", 12],
  ["ASPFU", 330879, "Neosartorya fumigata (strain ATCC MYA-4609 / Af293 / CBS 101355 / FGSC A1100)", "E", 12],
  ["EMENI", 227321, "Emericella nidulans (strain FGSC A4 / ATCC 38163 / CBS 112.46 / NRRL 194 / M139)", "E", 12],
  ["MAGO7", 242507, "Magnaporthe oryzae (strain 70-15 / ATCC MYA-4617 / FGSC 8958)", "E", 12],
  ["CRYNJ", 214684, "Cryptococcus neoformans var. neoformans serotype D (strain JEC21 / ATCC MYA-565)", "E", 12],
  ["USTMA", 237631, "Ustilago maydis (strain 521 / FGSC 9021)", "E", 12],
  ["BATDJ", 684364, "Batrachochytrium dendrobatidis (strain JAM81 / FGSC 10211)", "E", 12],
  ["ENTHI", 5759, "Entamoeba histolytica", "E", 12],
  ["SORBI", 4558, "Sorghum bicolor", "E", 10],
  ["BRADI", 15368, "Brachypodium distachyon", "E", 5],
  ["WHEAT", 4565, "Triticum aestivum", "E", 21],
  ["MEDTR", 3880, "Medicago truncatula", "E", 8],
  ["POPTR", 3694, "Populus trichocarpa", "E", 19],
  ["VITVI", 29760, "Vitis vinifera", "E", 19],
  ["SOLLC", 4081, "Solanum lycopersicum", "E", 12],
  ["PHYPA", 3218, "Physcomitrella patens subsp. patens", "E", 12],
  ["SELML", 88036, "Selaginella moellendorffii", "E", 12],
  ["CHLRE", 3055, "Chlamydomonas reinhardtii", "E", 17],
  ["OSTTA", 70448, "Ostreococcus tauri", "E", 20],
  ["CYAME", 45157, "Cyanidioschyzon merolae", "E", 20],
  ["TOXGM", 508771, "Toxoplasma gondii (strain ATCC 50611 / Me49)", "E", 12],
  ["TETTS", 312017, "Tetrahymena thermophila (strain SB210)", "E", 12],
  ["PARTE", 5888, "Paramecium tetraurelia", "E", 12],
  ["THAPS", 35128, "Thalassiosira pseudonana", "E", 12],
  ["PHYIT", 403677, "Phytophthora infestans (strain T30-4)", "E", 12],
  ["TRYB2", 185431, "Trypanosoma brucei brucei (strain 927/4 GUTat10.1)", "E", 11],
  ["LEIMA", 5664, "Leishmania major", "E", 36],
  ["NAEGR", 5762, "Naegleria gruberi", "E", 12],
  ["GIAIC", 184922, "Giardia intestinalis (strain ATCC 50803 / WB clone C6)", "E", 12],
  ["TRIVA", 5722, "Trichomonas vaginalis", "E", 12],
  ["VIBCH", 243277, "Vibrio cholerae serotype O1 (strain ATCC 39315 / El Tor Inaba N16961)", "B", 1],
  ["HAEIN", 71421, "Haemophilus influenzae (strain ATCC 51907 / DSM 11121 / KW20 / Rd)", "B", 1],
  ["NEIMB", 122586, "Neisseria meningitidis serogroup B (strain MC58)", "B", 1],
  ["CAUCR", 190650, "Caulobacter crescentus (strain ATCC 19089 / CB15)", "B", 1],
  ["RHIME", 266834, "Rhizobium meliloti (strain 1021)", "B", 1],
  ["RICPR", 272947, "Rickettsia prowazekii (strain Madrid E)", "B", 1],
  ["HELPY", 85962, "Helicobacter pylori (strain ATCC 700392 / 26695)", "B", 1],
  ["CAMJE", 192222, "Campylobacter jejuni subsp. jejuni serotype O:2 (strain ATCC 700819 / NCTC 11168)", "B", 1],
  ["GEOSL", 243231, "Geobacter sulfurreducens (strain ATCC 51573 / DSM 12127 / PCA)", "B", 1],
  ["STAA8", 93061, "Staphylococcus aureus (strain NCTC 8325)", "B", 1],
  ["STRPN", 170187, "Streptococcus pneumoniae serotype 4 (strain ATCC BAA-334 / TIGR4)", "B", 1],
  ["LISMO", 169963, "Listeria monocytogenes serovar 1/2a (strain ATCC BAA-679 / EGD-e)", "B", 1],
  ["CLOAB", 272562, "Clostridium acetobutylicum (strain ATCC 824 / DSM 792 / JCM 1419 / LMG 5710 / VKM B-1787)", "B", 1],
  ["MYCGE", 243273, "Mycoplasma genitalium (strain ATCC 33530 / G-37 / NCTC 10195)", "B", 1],
  ["CORGL", 196627, "Corynebacterium glutamicum (strain ATCC 13032 / DSM 20300 / JCM 1318 / LMG 3730 / NCIMB 10025)", "B", 1],
  ["STRCO", 100226, "Streptomyces coelicolor (strain ATCC BAA-471 / A3(2) / M145)", "B", 1],
  ["NOSS1", 103690, "Nostoc sp. (strain PCC 7120 / SAG 25.82 / UTEX 2576)", "B", 1],
  ["DEIRA", 243230, "Deinococcus radiodurans (strain ATCC 13939 / DSM 20539 / JCM 16871 / LMG 4051 / NBRC 15346 / NCIMB 9279 / R1 / VKM B-1422)", "B", 1],
  ["THET8", 300852, "Thermus thermophilus (strain HB8 / ATCC 27634 / DSM 579)", "B", 1],
  ["THEMA", 243274, "Thermotoga maritima (strain ATCC 43589 / MSB8 / DSM 3109 / JCM 10099)", "B", 1],
  ["AQUAE", 224324, "Aquifex aeolicus (strain VF5)", "B", 1],
  ["CHLTR", 272561, "Chlamydia trachomatis (strain D/UW-3/Cx)", "B", 1],
  ["BACTN", 226186, "Bacteroides thetaiotaomicron (strain ATCC 29148 / DSM 2079 / NCTC 10582 / E50 / VPI-5482)", "B", 1],
  ["BORBU", 224326, "Borrelia burgdorferi (strain ATCC 35210 / B31 / CIP 102532 / DSM 4680)", "B", 1],
  ["TREPA", 243276, "Treponema pallidum (strain Nichols)", "B", 1],
];

export const ORGANISMS: readonly Organism[] = ORGANISM_ROWS.map(([code, taxonId, scientificName, kingdom, chromosomes]) => ({
  code,
  taxonId,
  scientificName,
  kingdom,
  chromosomes,
}));

/**
 * A polyploid organism the simulator can model (the `polyploid` option): its subgenome letters
 * (chromosomes of subgenome X are named `1X`, `2X`, …) and the age in Mya of the split between
 * its subgenomes' diploid progenitors, from which the homoeologous copies of each gene diverge.
 */
interface Polyploidy {
  code: string;
  subgenomes: readonly string[];
  progenitorAge: number;
}

/**
 * Hexaploid bread wheat (AABBDD, 3 × 7 chromosomes): the A and B progenitors diverged about
 * 6.5 Mya, the D genome arose from them by homoploid hybridisation about 5.5 Mya (Marcussen et
 * al. 2014); tetraploid AABB and hexaploid AABBDD wheat formed far more recently.
 */
export const POLYPLOID: Polyploidy = { code: "WHEAT", subgenomes: ["A", "B", "D"], progenitorAge: 6.5 };

/** Name of the root clade of the full tree. */
export const ROOT_CLADE = "LUCA";

/**
 * The full species tree as clades: [clade name, age in Mya, children (clade names or species
 * codes)]. Children are listed so that a depth-first walk meets the organisms in (nearly) the
 * order of ORGANISMS. Names with a space are written single-quoted in Newick.
 */
// prettier-ignore
export const CLADES: ReadonlyArray<[string, number, readonly string[]]> = [
  ["LUCA", 4200, ["Eukaryota", "Bacteria", "Archaea"]],
  ["Eukaryota", 1800, ["Opisthokonta", "Viridiplantae", "Amoebozoa", "CYAME", "Sar", "Discoba", "Metamonada"]],
  ["Opisthokonta", 1300, ["Metazoa", "Fungi", "MONBE"]],
  ["Metazoa", 800, ["Eumetazoa", "TRIAD", "AMPQE"]],
  ["Eumetazoa", 740, ["Bilateria", "Cnidaria"]],
  ["Bilateria", 690, ["Deuterostomia", "Protostomia"]],
  ["Deuterostomia", 684, ["Chordata", "STRPU"]],
  ["Chordata", 660, ["Olfactores", "BRAFL"]],
  ["Olfactores", 640, ["Vertebrata", "CIOIN"]],
  ["Vertebrata", 600, ["Gnathostomata", "PETMA"]],
  ["Gnathostomata", 470, ["Euteleostomi", "CALMI"]],
  ["Euteleostomi", 430, ["Sarcopterygii", "Neopterygii"]],
  ["Sarcopterygii", 415, ["Tetrapoda", "LATCH"]],
  ["Tetrapoda", 352, ["Amniota", "Xenopus"]],
  ["Amniota", 318, ["Mammalia", "Sauria"]],
  ["Mammalia", 180, ["Theria", "ORNAN"]],
  ["Theria", 160, ["Eutheria", "MONDO"]],
  ["Eutheria", 100, ["Boreoeutheria", "LOXAF"]],
  ["Boreoeutheria", 95, ["Euarchontoglires", "Laurasiatheria"]],
  ["Euarchontoglires", 90, ["Primates", "Glires"]],
  ["Primates", 74, ["Simiiformes", "Strepsirrhini"]],
  ["Simiiformes", 43, ["Catarrhini", "CALJA"]],
  ["Catarrhini", 29, ["Hominoidea", "Cercopithecinae"]],
  ["Hominoidea", 20, ["Hominidae", "NOMLE"]],
  ["Hominidae", 15.2, ["Homininae", "PONAB"]],
  ["Homininae", 9.1, ["Hominini", "GORGO"]],
  ["Hominini", 6.4, ["HUMAN", "Pan"]],
  ["Pan", 2, ["PANTR", "PANPA"]],
  ["Cercopithecinae", 12, ["Papionini", "CHLSB"]],
  ["Papionini", 10, ["Macaca", "PAPAN"]],
  ["Macaca", 5, ["MACMU", "MACFA"]],
  ["Strepsirrhini", 60, ["MICMU", "OTOGA"]],
  ["Glires", 87, ["Rodentia", "RABIT"]],
  ["Rodentia", 72, ["Murinae", "CAVPO"]],
  ["Murinae", 12, ["MOUSE", "RATNO"]],
  ["Laurasiatheria", 80, ["Bovidae", "Carnivora", "HORSE", "MYOLU"]],
  ["Bovidae", 24, ["BOVIN", "SHEEP"]],
  ["Carnivora", 46, ["CANLF", "FELCA"]],
  ["Sauria", 280, ["Archelosauria", "ANOCA"]],
  ["Archelosauria", 255, ["Neognathae", "Cryptodira"]],
  ["Neognathae", 90, ["Phasianidae", "TAEGU"]],
  ["Phasianidae", 35, ["CHICK", "MELGA"]],
  ["Cryptodira", 160, ["PELSI", "CHEMY"]],
  ["Xenopus", 48, ["XENTR", "XENLA"]],
  ["Neopterygii", 300, ["Clupeocephala", "LEPOC"]],
  ["Clupeocephala", 230, ["DANRE", "Percomorphaceae"]],
  ["Percomorphaceae", 110, ["Eupercaria", "ORYLA"]],
  ["Eupercaria", 100, ["Tetraodontidae", "GASAC"]],
  ["Tetraodontidae", 40, ["TAKRU", "TETNG"]],
  ["Protostomia", 675, ["Ecdysozoa", "Lophotrochozoa"]],
  ["Ecdysozoa", 640, ["Arthropoda", "Rhabditida"]],
  ["Arthropoda", 560, ["Pancrustacea", "IXOSC"]],
  ["Pancrustacea", 520, ["Endopterygota", "DAPPU"]],
  ["Endopterygota", 345, ["Diptera", "APIME", "TRICA", "BOMMO"]],
  ["Diptera", 240, ["DROME", "Culicidae"]],
  ["Culicidae", 150, ["ANOGA", "AEDAE"]],
  ["Rhabditida", 400, ["Caenorhabditis", "BRUMA"]],
  ["Caenorhabditis", 30, ["CAEEL", "CAEBR"]],
  ["Lophotrochozoa", 600, ["SCHMA", "LOTGI"]],
  ["Cnidaria", 600, ["NEMVE", "HYDVU"]],
  ["Fungi", 1000, ["Dikarya", "BATDJ"]],
  ["Dikarya", 700, ["Ascomycota", "Basidiomycota"]],
  ["Ascomycota", 600, ["saccharomyceta", "SCHPO"]],
  ["saccharomyceta", 500, ["Saccharomycotina", "Pezizomycotina"]],
  ["Saccharomycotina", 380, ["Saccharomycetaceae", "Debaryomycetaceae", "YARLI"]],
  ["Saccharomycetaceae", 150, ["YEAST", "KLULA", "ASHGO"]],
  ["Debaryomycetaceae", 180, ["CANAL", "DEBHA"]],
  ["Pezizomycotina", 400, ["Aspergillus", "Sordariomycetes"]],
  ["Aspergillus", 60, ["ASPFU", "EMENI"]],
  ["Sordariomycetes", 250, ["NEUCR", "MAGO7"]],
  ["Basidiomycota", 450, ["CRYNJ", "USTMA"]],
  ["Viridiplantae", 1000, ["Embryophyta", "Chlorophyta"]],
  ["Embryophyta", 470, ["Tracheophyta", "PHYPA"]],
  ["Tracheophyta", 430, ["Mesangiospermae", "SELML"]],
  ["Mesangiospermae", 160, ["Pentapetalae", "Poaceae"]],
  ["Pentapetalae", 120, ["rosids", "SOLLC"]],
  ["rosids", 115, ["ARATH", "fabids", "VITVI"]],
  ["fabids", 105, ["Papilionoideae", "POPTR"]],
  ["Papilionoideae", 55, ["SOYBN", "MEDTR"]],
  ["Poaceae", 70, ["BOP clade", "Andropogoneae"]],
  ["BOP clade", 55, ["ORYSJ", "Pooideae"]],
  ["Pooideae", 35, ["BRADI", "WHEAT"]],
  ["Andropogoneae", 14, ["MAIZE", "SORBI"]],
  ["Chlorophyta", 800, ["CHLRE", "OSTTA"]],
  ["Amoebozoa", 1100, ["DICDI", "ENTHI"]],
  ["Sar", 1400, ["Alveolata", "Stramenopiles"]],
  ["Alveolata", 1000, ["Apicomplexa", "Oligohymenophorea"]],
  ["Apicomplexa", 500, ["PLAF7", "TOXGM"]],
  ["Oligohymenophorea", 300, ["TETTS", "PARTE"]],
  ["Stramenopiles", 900, ["THAPS", "PHYIT"]],
  ["Discoba", 1500, ["Trypanosomatidae", "NAEGR"]],
  ["Trypanosomatidae", 300, ["TRYB2", "LEIMA"]],
  ["Metamonada", 1500, ["GIAIC", "TRIVA"]],
  ["Bacteria", 3500, ["Proteobacteria", "Terrabacteria group", "THEMA", "AQUAE", "CHLTR", "BACTN", "Spirochaetales"]],
  ["Proteobacteria", 2500, ["Gammaproteobacteria", "NEIMB", "Alphaproteobacteria", "Campylobacterales", "GEOSL"]],
  ["Gammaproteobacteria", 1800, ["Enterobacteriaceae", "PSEAE", "VIBCH", "HAEIN"]],
  ["Enterobacteriaceae", 100, ["ECOLI", "SALTY"]],
  ["Alphaproteobacteria", 1900, ["CAUCR", "RHIME", "RICPR"]],
  ["Campylobacterales", 800, ["HELPY", "CAMJE"]],
  ["Terrabacteria group", 3000, ["Firmicutes", "Actinobacteria", "Cyanobacteria", "Deinococcus-Thermus", "MYCGE"]],
  ["Firmicutes", 2500, ["Bacilli", "CLOAB"]],
  ["Bacilli", 2000, ["Bacillales", "STRPN"]],
  ["Bacillales", 1500, ["BACSU", "STAA8", "LISMO"]],
  ["Actinobacteria", 2000, ["Corynebacteriales", "STRCO"]],
  ["Corynebacteriales", 1000, ["MYCTU", "CORGL"]],
  ["Cyanobacteria", 2000, ["SYNY3", "NOSS1"]],
  ["Deinococcus-Thermus", 2000, ["DEIRA", "THET8"]],
  ["Spirochaetales", 1500, ["BORBU", "TREPA"]],
  ["Archaea", 3500, ["Euryarchaeota", "TACK group"]],
  ["Euryarchaeota", 3000, ["METJA", "HALSA", "PYRFU", "ARCFU", "METAC"]],
  ["TACK group", 3000, ["SULSO", "NITMS"]],
];
