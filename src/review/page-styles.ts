// The review page's CSS (inline under the page's CSP nonce): a list of answers beside the one being reviewed.
export const REVIEW_STYLES = `
:root { color-scheme: light dark; font: 14px/1.45 system-ui, sans-serif; }
body { margin: 0; display: grid; grid-template-rows: auto auto 1fr auto; height: 100vh; }
header, nav, footer { padding: 6px 14px; }
header { display: flex; justify-content: space-between; align-items: baseline; border-bottom: 1px solid #8884; }
h1 { font-size: 17px; margin: 0; } h1 small { font-weight: normal; opacity: .6; font-size: 12px; }
h2 { font-size: 13px; margin: 12px 0 4px; text-transform: uppercase; letter-spacing: .04em; opacity: .7; }
nav { display: flex; gap: 14px; flex-wrap: wrap; align-items: center; border-bottom: 1px solid #8884; }
main { display: grid; grid-template-columns: minmax(220px, 30%) 1fr; min-height: 0; }
#list { margin: 0; padding: 0; list-style: none; overflow-y: auto; border-right: 1px solid #8884; }
#list li { padding: 4px 10px; cursor: pointer; display: flex; gap: 6px; border-bottom: 1px solid #8882; white-space: nowrap; overflow: hidden; content-visibility: auto; contain-intrinsic-size: auto 29px; }
#list li.current { background: #3b82f633; outline: 2px solid #3b82f6; outline-offset: -2px; }
#list .id { overflow: hidden; text-overflow: ellipsis; flex: 1; }
.mark { width: 1.2em; text-align: center; font-weight: bold; }
.pass { color: #15803d; } .fail { color: #b91c1c; } .nj { color: #a16207; }
#detail { overflow-y: auto; padding: 8px 18px 40px; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; padding: 8px; background: #8881; border-radius: 4px; font: 13px/1.45 ui-monospace, monospace; }
.turn { margin: 4px 0 8px; padding-left: 10px; border-left: 3px solid #8886; }
.turn pre { background: none; padding: 2px 0; }
table { border-collapse: collapse; width: 100%; } td, th { border: 1px solid #8884; padding: 3px 6px; text-align: left; vertical-align: top; }
#label-bar { margin-top: 14px; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; position: sticky; bottom: 0; padding: 8px 0; background: Canvas; }
#label-state { min-width: 16em; font-weight: bold; }
#note { flex: 1; min-width: 14em; }
button { font: inherit; padding: 3px 10px; }
footer { font-size: 12px; opacity: .7; border-top: 1px solid #8884; }
`;
