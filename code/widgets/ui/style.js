// The widgets' stylesheet, injected once by the bundle (so a page needs only the script).
const CSS = `
.bcw { --bcw-ground: #fff; --bcw-ink: #1b1b1b; --bcw-muted: #5f6368; --bcw-line: #c9cdd2;
  --bcw-panel: #f5f6f8; --bcw-accent: #0072B2; --bcw-focus: #E69F00;
  color: var(--bcw-ink); background: var(--bcw-ground); border: 1px solid var(--bcw-line);
  border-radius: 8px; padding: 0.75rem; margin: 1rem 0; font: 15px/1.35 system-ui, -apple-system,
  "Segoe UI", Roboto, sans-serif; text-align: left; box-sizing: border-box; max-width: 100%; }
.bcw.bcw-dark { --bcw-ground: #15181d; --bcw-ink: #e8eaed; --bcw-muted: #aab0b8; --bcw-line: #3a4048;
  --bcw-panel: #1f242b; --bcw-accent: #56B4E9; }
.bcw *, .bcw *::before, .bcw *::after { box-sizing: border-box; }
.bcw-head { display: flex; align-items: baseline; gap: 0.75rem; flex-wrap: wrap; margin-bottom: 0.5rem; }
.bcw-title { font-weight: 700; font-size: 1.05em; margin: 0; }
.bcw-hint { color: var(--bcw-muted); font-size: 0.85em; flex: 1 1 14em; }
.bcw-body { display: grid; grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr); gap: 0.75rem; }
.bcw-body.bcw-wide { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
@container bcw (max-width: 620px) { .bcw-body, .bcw-body.bcw-wide { grid-template-columns: minmax(0, 1fr); } }
.bcw { container: bcw / inline-size; }
.bcw-body.bcw-funnel { grid-template-columns: minmax(0, 1.4fr) minmax(0, 1fr); }
.bcw-pair { display: grid; grid-template-columns: minmax(0, 2.2fr) minmax(0, 1fr); gap: 4px; align-items: start; }
@container bcw (max-width: 620px) { .bcw-body.bcw-funnel { grid-template-columns: minmax(0, 1fr); } }
.bcw-col { display: flex; flex-direction: column; gap: 0.5rem; min-width: 0; }
.bcw-plot { position: relative; width: 100%; }
.bcw-plot canvas { display: block; width: 100%; max-width: 100%; touch-action: none; border-radius: 4px; }
.bcw-plot canvas[tabindex] { cursor: crosshair; }
.bcw-controls { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; gap: 0.3rem 0.5rem;
  align-items: center; background: var(--bcw-panel); border-radius: 6px; padding: 0.5rem; }
.bcw-controls label { font-size: 0.9em; white-space: nowrap; }
.bcw-controls output { font-variant-numeric: tabular-nums; font-size: 0.9em; min-width: 4.5em; text-align: right; }
.bcw-off { color: var(--bcw-muted); }
.bcw-controls input[type=range] { width: 100%; accent-color: var(--bcw-accent); margin: 0; min-height: 1.6em; }
/* A drop-down takes the readout's column as well, so its longest option shows in full. */
.bcw-controls select { grid-column: span 2; width: 100%; font: inherit; font-size: 0.9em; color: var(--bcw-ink); background: var(--bcw-ground);
  border: 1px solid var(--bcw-line); border-radius: 4px; padding: 0.15em 0.3em; }
.bcw-buttons { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 0.4rem; }
.bcw button { font: inherit; font-size: 0.9em; color: var(--bcw-ink); background: var(--bcw-ground); cursor: pointer;
  border: 1px solid var(--bcw-line); border-radius: 4px; padding: 0.25em 0.7em; min-height: 2em; }
.bcw button:hover { border-color: var(--bcw-accent); }
.bcw button[aria-pressed=true] { background: var(--bcw-accent); color: #fff; border-color: var(--bcw-accent); }
.bcw :focus-visible { outline: 3px solid var(--bcw-focus); outline-offset: 2px; }
.bcw canvas:focus-visible { outline-offset: 0; }
/* A table wider than a phone scrolls inside its own box; the page does not (WCAG 1.4.10). */
.bcw-readout { font-variant-numeric: tabular-nums; overflow-x: auto; max-width: 100%; }
.bcw .bcw-readout table { border-collapse: collapse; width: 100%; font-size: 1em; table-layout: auto;
  margin: 0; border: 0; color: inherit; }
.bcw .bcw-readout tr, .bcw .bcw-readout tbody tr:nth-child(odd), .bcw .bcw-readout tbody tr:nth-child(even),
.bcw .bcw-readout tbody tr:hover { background: none; }
.bcw .bcw-readout th, .bcw .bcw-readout td { padding: 0.15em 0.35em; text-align: right; border: 0;
  border-bottom: 1px solid var(--bcw-line); vertical-align: baseline; }
.bcw .bcw-readout th:first-child, .bcw .bcw-readout td:first-child { text-align: left; }
.bcw .bcw-readout th { font-weight: 600; color: var(--bcw-muted); font-size: 0.85em; }
.bcw .bcw-readout td { font-size: 1.12em; font-weight: 600; white-space: nowrap; }
.bcw-big { display: grid; grid-template-columns: repeat(auto-fit, minmax(7.5em, 1fr)); gap: 0.35rem; }
.bcw-big div { background: var(--bcw-panel); border-radius: 6px; padding: 0.3em 0.5em; }
.bcw-big span { display: block; color: var(--bcw-muted); font-size: 0.8em; }
.bcw-big b { font-size: 1.3em; font-variant-numeric: tabular-nums; }
/* The palette's bluish green and vermillion, darkened for text: 5.4:1 and 5.5:1 on white (WCAG AA). */
.bcw-good { color: #00775a; } .bcw-warn { color: #b04a00; }
.bcw-dark .bcw-good { color: #56c7a0; } .bcw-dark .bcw-warn { color: #ff8a4c; }
.bcw-footer { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; margin-top: 0.6rem; }
.bcw-footer > * { flex: 1 1 14rem; min-width: 0; }
/* On a slide the canvas is fixed and the tables are laid out to fit it: no scroll box there. */
.reveal .bcw-readout { overflow-x: visible; } .reveal .bcw-footer > * { min-width: auto; }
.bcw-footer > :first-child { flex: 3 1 30rem; }
.bcw-status { color: var(--bcw-muted); font-size: 0.85em; min-height: 1.2em; }
.bcw-legend { display: flex; flex-wrap: wrap; gap: 0.2rem 0.8rem; font-size: 0.82em; color: var(--bcw-muted); }
.bcw-legend i { display: inline-block; width: 1.4em; height: 0; border-top: 3px solid; vertical-align: middle; margin-right: 0.3em; }
.bcw-legend i.bcw-dash { border-top-style: dashed; }
.bcw-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.bcw-error { color: #b04a00; font-weight: 600; }
/* On a slide: every text 22 px of the 700 px tall canvas, above the 20 px a back row needs of
   figure text (a lecturer reads the numbers out); hierarchy by weight and colour, not by size. */
.reveal .bcw { font-size: 22px; line-height: 1.2; margin: 0 auto; width: 100%; padding: 4px 6px; border: 0; }
.reveal .bcw * { font-size: 22px !important; }
.reveal .bcw-head { display: none; }
.reveal .bcw table { margin: 0; }
.reveal .bcw-body { gap: 8px; }
.reveal .bcw-col { gap: 4px; }
.reveal .bcw-controls { gap: 2px 8px; padding: 4px 6px; }
.reveal .bcw-controls input[type=range] { min-height: 1.1em; }
.reveal .bcw-controls output { min-width: 3.6em; }
.reveal .bcw-controls select { padding: 0 0.2em; }
.reveal .bcw-buttons { gap: 6px; }
.reveal .bcw button { min-height: 1.5em; padding: 0 0.45em; }
.reveal .bcw-legend { gap: 0 0.8em; line-height: 1.2; }
.reveal .bcw-big { gap: 4px; }
.reveal .bcw-big div { padding: 2px 6px; }
/* Tight rows on a slide: the funnel's audit table has eight of them beside the plot. */
/* Narrow gaps: with two negative means (the two-mode preset) the Metropolis table's last column
   ran 14 px past the figure's edge at 8 px. */
.reveal .bcw .bcw-readout th, .reveal .bcw .bcw-readout td { padding: 0 2px 0 5px; line-height: 1.1; }
.reveal .bcw-footer { margin-top: 4px; gap: 4px 16px; }
.reveal .bcw-big div { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 0.4em; }
.reveal .bcw-big span { display: inline; }
.reveal .bcw .bcw-readout th { white-space: nowrap; }
/* A long row name may take two lines rather than push the numbers past the figure's edge (the
   dimension figure at d = 100 with the rule for d = 1). */
.reveal .bcw .bcw-readout tbody th { white-space: normal; }
.reveal .bcw-body, .reveal .bcw-body.bcw-wide { grid-template-columns: minmax(0, 0.8fr) minmax(0, 1.2fr); }
.reveal .bcw-body.bcw-funnel { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
.reveal .bcw-tables { display: flex; flex-direction: column; gap: 4px; }
.reveal .bcw-status { min-height: 1.2em; height: 1.2em; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
/* A figure whose status line carries its warnings has room for two lines of it on its slide. */
.reveal .bcw-status.bcw-status-2 { height: 2.4em; white-space: normal; display: -webkit-box;
  -webkit-line-clamp: 2; -webkit-box-orient: vertical; }
.bcw-keys { display: none; }
.reveal .bcw-keys { display: block; margin: 0 0 4px; padding: 0 6px; border-radius: 4px;
  line-height: 1.3; height: 1.3em; overflow: hidden; white-space: nowrap; text-overflow: ellipsis;
  color: var(--bcw-muted); background: var(--bcw-panel); }
.reveal .bcw.bcw-engaged { outline: 4px solid var(--bcw-focus); outline-offset: 2px; }
.reveal .bcw.bcw-engaged .bcw-keys { color: #fff; background: var(--bcw-accent); }
.reveal .bcw:focus-visible { outline: 3px solid var(--bcw-focus); outline-offset: 2px; }
`;

export function injectStyle() {
  if (document.getElementById('bcw-style')) return;
  const style = document.createElement('style');
  style.id = 'bcw-style';
  style.textContent = CSS;
  document.head.appendChild(style);
}
