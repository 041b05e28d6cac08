/**
 * The stylesheet of the pictures (class names under `.pic`): part of the pages' one stylesheet,
 * and the `<style>` of an SVG served alone. Colours are custom properties with light defaults,
 * so a page's dark scheme recolours the drawings and a lone SVG stays light.
 */
export const PICTURE_STYLE = `
.pic{font:12px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.pic text{fill:var(--pic-fg,#1d232b)}
.pic .paper{fill:#fff}
.pic text.muted,.pic .muted text{fill:var(--pic-muted,#5c6670)}
.pic text.head{font-size:10.5px;font-weight:600;letter-spacing:.04em;fill:var(--pic-muted,#5c6670)}
.pic text.title{font-size:14px;font-weight:600}
.pic text.sp{font-style:italic}
.pic text.focus{font-weight:700}
.pic text.code{font-size:10.5px;fill:var(--pic-muted,#5c6670)}
.pic text.mono{font:10.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.pic text.mono.focus{font-weight:700}
.pic a text{fill:var(--pic-link,#0b5cad)}
.pic a:hover text{text-decoration:underline}
.pic .stripe{fill:var(--pic-stripe,#f4f6f8)}
.pic .band{fill:var(--pic-band,#fff1c9)}
.pic .band-edge{fill:none;stroke:var(--pic-mine-edge,#c77700);stroke-width:1}
.pic .branch{fill:none;stroke:var(--pic-line,#8d99a6);stroke-width:1.4}
.pic .branch.gone{stroke-dasharray:3 3;opacity:.55}
.pic .node{fill:var(--pic-node,#fff);stroke:var(--pic-line,#8d99a6);stroke-width:1.4}
.pic .node.has{fill:var(--pic-hog-edge,#3d7ebf);stroke:var(--pic-hog-edge,#3d7ebf)}
.pic .node.leaf{fill:var(--pic-line,#8d99a6);stroke:none}
.pic .node.leaf.has{fill:var(--pic-fg,#1d232b)}
.pic .ring{fill:none;stroke:var(--pic-mine,#f59f00);stroke-width:2.5}
.pic .hog{fill:var(--pic-hog,#cfe2f6);stroke:var(--pic-hog-edge,#3d7ebf);stroke-width:1}
.pic .hog.mine{fill:var(--pic-mine,#f59f00);stroke:var(--pic-mine-edge,#c77700)}
.pic .more{fill:var(--pic-hog,#cfe2f6);stroke:var(--pic-hog-edge,#3d7ebf);stroke-dasharray:2 1.5}
.pic .dup{fill:var(--pic-dup,#d6336c)}
.pic text.dup-n{fill:#fff;font-size:10px;font-weight:700;text-anchor:middle}
.pic .loss{stroke:var(--pic-loss,#7c8791);stroke-width:1.8;stroke-linecap:round}
.pic text.loss-n{fill:var(--pic-loss,#7c8791);font-size:10.5px;font-weight:600}
.pic .gene{fill:var(--pic-gene,#4c6ef5)}
.pic .mine .gene{fill:var(--pic-mine,#f59f00)}
.pic .genes{fill:var(--pic-gene-soft,#dbe4ff);stroke:var(--pic-gene,#4c6ef5);stroke-width:.8}
.pic .genes.mine{fill:var(--pic-mine-soft,#ffe3a8);stroke:var(--pic-mine-edge,#c77700)}
.pic text.genes-n{font-size:10px;font-weight:600;text-anchor:middle}
.pic .absent{fill:var(--pic-line,#8d99a6);opacity:.6}
.pic a:hover .hog,.pic a:hover .gene,.pic a:hover .more{stroke:var(--pic-fg,#1d232b);stroke-width:1.6}
.pic .track{fill:var(--pic-stripe,#f4f6f8);stroke:var(--pic-line,#8d99a6);stroke-width:1}
.pic .domain{stroke:var(--pic-fg,#1d232b);stroke-width:.6;stroke-opacity:.45}
.pic .d0{fill:#4c6ef5}.pic .d1{fill:#12b886}.pic .d2{fill:#f59f00}.pic .d3{fill:#e64980}.pic .d4{fill:#7950f2}.pic .d5{fill:#15aabf}.pic .d6{fill:#82c91e}.pic .d7{fill:#fd7e14}
.pic text.on{fill:#fff;font-size:10.5px;font-weight:600}
.pic.domains{max-width:100%;height:auto}
.pic text.tick{font-size:10px;fill:var(--pic-muted,#5c6670)}
.pic .axis{stroke:var(--pic-line,#8d99a6);stroke-width:1}
`;
