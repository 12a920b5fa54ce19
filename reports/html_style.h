// The HTML report's style sheet: system fonts only, readable from a phone to a wide screen.
#pragma once

namespace tuner::report {

inline constexpr const char* kHtmlStyle = R"css(
:root { --fg:#1a202c; --muted:#5a6473; --line:#dde2e8; --bg:#ffffff; --panel:#f6f8fa; --accent:#08519c; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--fg);
  font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif; }
main { max-width:1360px; margin:0 auto; padding:16px clamp(10px,3vw,32px) 48px; }
h1 { font-size:1.7rem; margin:.3em 0 .1em; }
h2 { font-size:1.35rem; margin:1.6em 0 .4em; padding-top:.4em; border-top:2px solid var(--line); }
h3 { font-size:1.1rem; margin:1.2em 0 .4em; }
h4 { font-size:1rem; margin:1em 0 .3em; }
.meta, .note, figcaption, .muted { color:var(--muted); }
.note { background:var(--panel); border-left:3px solid #bbb; padding:6px 10px; margin:8px 0; }
nav ul { display:flex; flex-wrap:wrap; gap:6px 14px; padding:0; list-style:none; margin:.4em 0; }
a { color:var(--accent); }
code, .mono { font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace; font-size:.9em; }
.cards { display:grid; grid-template-columns:repeat(auto-fit,minmax(min(100%,150px),1fr)); gap:10px; margin:10px 0; }
.card { background:var(--panel); border:1px solid var(--line); border-radius:6px; padding:8px 12px; }
.card .k { color:var(--muted); font-size:.85em; } .card .v { font-size:1.15em; font-weight:600; overflow-wrap:break-word; }
.card .v.params { font-size:.95em; font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace; }
@media (min-width:700px) { .card.wide { grid-column:span 2; } }
.charts { display:grid; grid-template-columns:repeat(auto-fill,minmax(min(100%,520px),1fr)); gap:14px; margin:10px 0; }
figure { margin:0; background:#fff; border:1px solid var(--line); border-radius:6px; padding:6px; }
figure svg { display:block; width:100%; height:auto; }
figcaption { font-size:.85em; padding:4px 4px 2px; }
.scroll { overflow-x:auto; margin:6px 0 12px; border:1px solid var(--line); border-radius:6px; }
table { border-collapse:collapse; width:100%; font-size:.88em; }
th, td { padding:4px 8px; border-bottom:1px solid var(--line); text-align:left; vertical-align:top; white-space:nowrap; }
th { background:var(--panel); position:sticky; top:0; white-space:nowrap; }
td.n { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
td.wrap { white-space:normal; overflow-wrap:break-word; min-width:16em; }
tr:hover td { background:#fbfcfd; }
.st { display:inline-block; width:.7em; height:.7em; border-radius:50%; margin-right:6px; vertical-align:baseline; }
details { border:1px solid var(--line); border-radius:6px; padding:6px 12px; margin:12px 0; }
summary { cursor:pointer; } summary h3 { display:inline; }
/* On a phone a chart keeps a readable size and scrolls sideways inside its frame. */
@media (max-width:600px) { body { font-size:14px; } th, td { padding:3px 5px; } figure { overflow-x:auto; }
  figure svg { min-width:500px; } }
@media print { details { break-inside:avoid; } }
)css";

}  // namespace tuner::report
