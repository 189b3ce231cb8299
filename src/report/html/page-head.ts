// The head every self-contained kbbench page shares (report.html, compare.html): charset, dark mode, CSP.
import { esc } from './escape.js';

/** Nothing may load from anywhere: the page works from disk, offline, and answers cannot phone home. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/** A page served with a nonce (kbbench review) names its own CSP, and its style carries the nonce. */
export function pageHead(title: string, styles: string, served?: { csp: string; nonce: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta http-equiv="Content-Security-Policy" content="${served ? esc(served.csp) : PAGE_CSP}">${served ? '\n<meta name="referrer" content="no-referrer">\n<link rel="icon" href="data:,">' : ''}
<title>${esc(title)}</title>
<style${served ? ` nonce="${esc(served.nonce)}"` : ''}>${styles}</style>
</head>`;
}
