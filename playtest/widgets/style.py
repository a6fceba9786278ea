"""The kit's CSS, shipped in one HTML widget (see ``components.style_widget``).

Class names say what a slot *is* (back, face, looking, clickable), never which card.
"""

STYLE = """<style>
/* score tables (Lazy Sunday's rounds): numbers right-aligned under their seat, row names left */
.pt-scores th, .pt-scores td { text-align: right; padding: 1px 8px; }
.pt-scores th:first-child, .pt-scores td:first-child, .pt-reveal td:last-child { text-align: left; }
.pt-app { font-family: system-ui, sans-serif; max-width: 1240px; }
/* a dashboard's title and intro take little height: the board comes first */
.jp-RenderedMarkdown h1 { font-size: 1.7em; margin: 0.1em 0 0.3em; }
.jp-RenderedMarkdown p, .jp-RenderedMarkdown details { margin: 0.3em 0; }
.pt-table { background: #2f6b3a; border-radius: 12px; padding: 6px 12px; color: #f4f4f0; }
.pt-table .widget-html, .pt-table .widget-html-content { color: #f4f4f0; }
.pt-status { font-size: 15px; }
.pt-card.jupyter-button, .pt-card.widget-button {
  width: 66px; height: 90px; margin: 3px; padding: 3px; border-radius: 7px;
  white-space: pre-line; line-height: 1.15; font-size: 11px; font-weight: 600;
  display: flex; align-items: center; justify-content: center; text-align: center;
  box-shadow: 0 1px 3px rgba(0,0,0,.45); overflow: hidden; }
.pt-card.pt-back { background: repeating-linear-gradient(45deg, #2d4f8b, #2d4f8b 6px, #3a63a8 6px, #3a63a8 12px);
  border: 3px solid #f4f4f0; }
.pt-card.pt-face { background: #fffdf6; color: #222; border: 1px solid #999; }
.pt-card.pt-kind-action { background: #fff0d6; border-color: #c9822b; }
/* the generic board's red cards (hearts, diamonds): playtest.widgets.board */
.pt-card.pt-face.pt-kind-red { color: #c62828; }
.pt-card.pt-empty { background: transparent; border: 2px dashed rgba(255,255,255,.5); box-shadow: none; }
.pt-card.pt-looking { outline: 3px solid #ffd54a; outline-offset: 1px; }
.pt-card.pt-clickable { cursor: pointer; box-shadow: 0 0 0 3px #7fe3ff, 0 1px 3px rgba(0,0,0,.45); }
.pt-card.pt-clickable:hover { transform: translateY(-3px); }
/* a tutorial's lit cards: a thick orange ring and glow, unlike the cyan of any clickable card;
   it pulses three times (six half-cycles, alternate) and then holds still (an endless pulse repaints the page without end:
   ~0.2 of a core for each open learn page, measured) */
.pt-card.pt-lit { outline: 5px solid #ff8c00; outline-offset: 2px;
  box-shadow: 0 0 14px 6px rgba(255, 170, 0, .9); animation: pt-glow 0.6s ease-in-out 6 alternate; }
@keyframes pt-glow { from { outline-color: #ff8c00; } to { outline-color: #ffd54a; } }
.pt-caption { font-size: 12px; }
.pt-row { border-top: 1px solid rgba(255,255,255,.15); padding-top: 2px; min-width: 470px; flex: 1 1 470px; }
.pt-seatlabel { font-size: 13px; }
.pt-seatpanel { border: 1px solid rgba(255, 255, 255, 0.3); border-radius: 8px; padding: 2px 8px 6px; margin: 4px 8px 4px 0;
  min-width: 150px; flex: 0 1 auto; align-self: flex-start; }
.pt-seatpanel.pt-onturn { border-color: #ffd54a; box-shadow: inset 0 0 0 1px #ffd54a; }
/* a seat panel stacks its zones: a row's 470px basis (its width beside others) would be its height here */
.pt-seatpanel > .pt-row { flex: 0 0 auto; min-width: 0; }
.pt-seatlabel .pt-turn { background: #ffd54a; color: #222; border-radius: 4px; padding: 0 4px; }
/* the move controls stay on screen under a tall board (a 6-seat table): stuck to the bottom of the
   page's scroller, which every box between them must let overflow (Voila's output area clips; the game and
   learn pages' box, .pt-page, holds the app) */
.pt-page, .pt-app, .jp-OutputArea:has(.pt-app), .jp-OutputArea-output:has(.pt-app), .jp-OutputArea-child:has(.pt-app) {
  overflow: visible !important; }
.pt-controls { background: #f3f1ea; border-radius: 8px; padding: 6px 10px; margin-top: 6px;
  position: sticky; bottom: 0; z-index: 20; box-shadow: 0 -2px 8px rgba(0,0,0,.25); max-height: 60vh; overflow-y: auto; }
/* small cards: other seats' hidden hands, decks (what counts is how many) */
.pt-table .pt-mini .pt-card.jupyter-button, .pt-table .pt-mini .pt-card.widget-button { width: 30px; height: 42px; margin: 1px;
  padding: 0; font-size: 8px; border-width: 2px; }
.pt-error { background: #fde2e1; border: 2px solid #c62828; color: #8e1b1b; border-radius: 6px;
  padding: 6px 10px; align-items: center; }
.pt-error .widget-html-content { color: #8e1b1b; white-space: normal; overflow-wrap: anywhere; }
.pt-error > .widget-html { flex: 1 1 auto; min-width: 0; }
.pt-error > .jupyter-button, .pt-error > .widget-button { flex: 0 0 auto; min-width: 60px; }
a.pt-download, a.pt-download:visited { display: inline-block; padding: 4px 12px; margin: 2px 6px;
  background: #1976d2; color: #fff; border-radius: 4px; text-decoration: none; font-weight: 600;
  cursor: pointer; box-shadow: 0 1px 2px rgba(0,0,0,.3); white-space: nowrap; }
a.pt-download:hover { background: #125ea8; text-decoration: underline; }
.pt-save-note { background: #fff3cd; border: 2px solid #b8860b; border-radius: 6px; padding: 4px 10px; margin: 4px 0; }
.pt-resume { background: #e8f5e9; border: 2px solid #2e7d32; border-radius: 6px; padding: 6px 10px; margin: 4px 0; }
.pt-rules .widget-html-content { font-size: 13px; line-height: 1.45; white-space: normal; }
.pt-rules li { margin-bottom: 2px; }
.pt-privacy { background: #263238; color: white; border-radius: 10px; padding: 16px; margin: 6px 0; }
.pt-privacy .widget-html-content, .pt-privacy h3 { color: white; }
.pt-log .widget-html-content { max-height: 240px; overflow-y: auto; font-size: 12px; line-height: 1.45; display: block; }
.pt-moveno { color: #888; display: inline-block; min-width: 2.5em; }
.pt-help .widget-html-content { font-size: 11px; color: #666; line-height: 1.2; }
.pt-help .pt-warn { color: #b71c1c; }
.pt-rewound { background: #fff3cd; border-radius: 6px; padding: 2px 8px; }
/* a phone (390 px): rows wrap, cards shrink, nothing runs off the right edge */
@media (max-width: 600px) {
  .pt-app, .pt-table { max-width: 100vw; }
  .pt-table { padding: 6px; }
  .pt-row { min-width: 0; flex: 1 1 100%; }
  .pt-card.jupyter-button, .pt-card.widget-button { width: 50px; height: 70px; font-size: 9px; margin: 2px; }
  .pt-app .widget-hbox, .pt-table .widget-hbox { flex-wrap: wrap; }
  .pt-controls { max-height: 45vh; }
}
</style>"""
