/**
 * The part of the pages' one stylesheet (render/html.ts) that the pages for people use: their
 * head, facts, tables, sequence blocks and figures, and the pictures' colours in the dark scheme.
 */
export const PAGE_STYLE = `
header.bar{flex-wrap:wrap;gap:.2em 1.5em}
header.bar nav{flex-wrap:wrap;gap:.1em 1em}
.crumbs{font-size:.88em;color:var(--muted);margin:.1em 0 .3em;overflow-wrap:anywhere}
.crumbs a{text-decoration:none}
.page-head{display:flex;flex-wrap:wrap;gap:.2em 1.5em;align-items:baseline;justify-content:space-between}
.page-head h1{margin:.1em 0 .15em;word-break:normal;overflow-wrap:anywhere}
.page-head h1 small{font-size:.7em;font-weight:400;color:var(--muted)}
.formats{font-size:.85em;color:var(--muted);margin:0;white-space:nowrap}
.lead{color:var(--muted);margin:.1em 0 .9em;max-width:60em}
.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.3em 1.4em;margin:.5em 0 1em;max-width:60em}
.facts dt{color:var(--muted)}
.facts dd{margin:0;overflow-wrap:anywhere}
.sp{font-style:italic}
.chips{display:flex;flex-wrap:wrap;gap:.3em;padding:0;margin:0;list-style:none}
.chips li a,.chips li span{display:inline-block;padding:.05em .55em;border:1px solid var(--line);border-radius:999px;font-size:.88em;text-decoration:none;background:var(--panel)}
.chips li .here{border-color:var(--num);font-weight:600}
.scroll{overflow-x:auto;max-width:100%;margin:.4em 0}
table.data{width:auto;min-width:50%;font-size:14px;margin:0}
table.data th{background:var(--panel);white-space:nowrap}
table.data td{white-space:nowrap}
table.data td.wrap{white-space:normal;min-width:12em}
table.data .num{text-align:right;font-variant-numeric:tabular-nums}
table.data tbody tr:hover{background:var(--panel)}
table.data .sub{display:block;font-size:.85em;color:var(--muted)}
.figure{overflow-x:auto;border:1px solid var(--line);border-radius:8px;padding:.4em;margin:.5em 0;max-width:100%;width:fit-content}
.figure svg{display:block}
.figure-note{font-size:.88em;color:var(--muted);margin:.2em 0 .8em}
pre.fasta{white-space:pre;overflow-x:auto;line-height:1.4;user-select:all;-webkit-user-select:all;max-width:100%;width:fit-content}
pre.newick{white-space:pre-wrap;word-break:break-all;user-select:all;-webkit-user-select:all;max-height:16em;overflow-y:auto}
.seq-head{display:flex;flex-wrap:wrap;gap:.2em 1em;align-items:baseline}
.seq-head h2{flex:1 1 auto}
.seq-head span{font-size:.85em;color:var(--muted)}
.links{display:flex;flex-wrap:wrap;gap:.3em 1.2em;padding:0;margin:.4em 0;list-style:none;font-size:.92em}
.empty{color:var(--muted);font-style:italic}
@media (prefers-color-scheme:dark){:root{--pic-fg:#e3e7ec;--pic-muted:#9aa5b1;--pic-link:#7db7f5;--pic-line:#6f7b88;--pic-stripe:#1b2027;--pic-band:#3b3220;--pic-node:#15191e;--pic-hog:#1f3d5c;--pic-hog-edge:#6ea8e0;--pic-gene:#748ffc;--pic-gene-soft:#26305c;--pic-mine-soft:#5c4310;--pic-loss:#9aa5b1}}
@media (max-width:40em){main{padding:.8em .8em 2em}.facts{grid-template-columns:minmax(0,1fr)}.facts dt{margin-top:.3em}}
`;
