"""CSS of the live-table pages (seat page, host controls, lobby), beside the kit's own
(:mod:`playtest.widgets.style`). Class names are stable: browser tests select by them."""

STYLE = """<style>
.pt-live-title .widget-html-content { font-size: 18px; }
.pt-live-intro .widget-html-content { white-space: normal; font-size: 14px; line-height: 1.4; color: #333; }
.pt-live-status .widget-html-content { display: block; padding: 3px 10px; border-radius: 6px; background: #e8f5e9;
  color: #1b5e20; font-size: 13px; }
.pt-live-status.pt-reconnecting .widget-html-content { background: #fff3cd; color: #6d4c00; }
.pt-live-status.pt-closed .widget-html-content { background: #fde2e1; color: #8e1b1b; }
.pt-players .widget-html-content { white-space: normal; line-height: 1.9; }
.pt-player { display: inline-block; border-radius: 4px; padding: 0 6px; margin-right: 6px; font-size: 13px;
  background: #e8f5e9; border: 1px solid #66bb6a; }
.pt-player.pt-away { background: #eceff1; border-color: #b0bec5; color: #607d8b; }
.pt-player.pt-bot { background: #ede7f6; border-color: #9575cd; }
.pt-player.pt-me { font-weight: 700; }
.pt-player.pt-acting { box-shadow: 0 0 0 2px #ff8a65; }
.pt-outcome .widget-html-content { display: block; padding: 2px 10px; border-radius: 6px; font-size: 14px;
  white-space: normal; }
.pt-outcome .pt-warn { color: #b71c1c; }
.pt-outcome .pt-played { color: #1b5e20; }
.pt-you .pt-warn { color: #b71c1c; }
.pt-handed .widget-html-content { display: block; padding: 3px 10px; border-radius: 6px; background: #fde2e1;
  color: #8e1b1b; font-size: 14px; white-space: normal; }
.pt-last-move .widget-html-content { display: block; padding: 3px 10px; border-radius: 6px; font-size: 14px;
  white-space: normal; transition: background-color 1.2s ease-out; }
.pt-last-move.pt-fresh .widget-html-content { background: #ffcc80; color: #222; transition: none; }
.pt-countdown .widget-html-content { display: block; padding: 3px 10px; border-radius: 6px; font-size: 14px;
  white-space: normal; background: #fff3cd; color: #6d4c00; }
.pt-turn-clock .widget-html-content { display: block; padding: 3px 10px; border-radius: 6px; font-size: 14px;
  white-space: normal; background: #eef3fb; color: #1d3557; }
.pt-turn-clock.pt-mine .widget-html-content { background: #ffcc80; color: #222; font-size: 16px; font-weight: 600; }
.pt-countdown.pt-mine .widget-html-content { background: #ffcc80; color: #222; font-size: 16px; font-weight: 600; }
.pt-moved { box-shadow: 0 0 0 4px #ff8a65; border-radius: 8px; }
.pt-hold { background: #e3f2fd; border: 2px solid #1976d2; border-radius: 8px; padding: 8px 12px; margin: 4px 0; }
.pt-hold .widget-html-content { white-space: normal; }
.pt-gameover { background: #fff8e1; border: 2px solid #f9a825; border-radius: 8px; padding: 8px 12px; margin: 4px 0; }
.pt-gameover .widget-html-content { white-space: normal; }
.pt-feedback { border-top: 1px solid #e0c070; padding-top: 6px; margin-top: 6px; }
.pt-feedback textarea { min-height: 56px; }
.pt-host { background: #eceff1; border-radius: 8px; padding: 6px 10px; margin: 6px 0; }
.pt-live-message { background: #f3f1ea; border-radius: 10px; padding: 16px 24px; margin: 12px 0; }
.pt-live-message .widget-html-content { white-space: normal; font-size: 15px; }
.pt-lobby-links .widget-html-content, .pt-lobby-tables .widget-html-content { white-space: normal; }
.pt-lobby-links table { border-collapse: collapse; }
.pt-lobby-links td { padding: 2px 10px 2px 0; vertical-align: top; }
.pt-lobby-links code, .pt-address { user-select: all; font-size: 12px; background: #f5f5f5; padding: 1px 4px;
  border-radius: 3px; word-break: break-all; }
.pt-lobby-links a, .pt-lobby-tables a { font-weight: 600; color: #1565c0; text-decoration: underline; }
.pt-lobby-row { border-bottom: 1px solid #e0e0e0; align-items: center; }
</style>"""
