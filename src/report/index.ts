// The report module's public face: buildReports, the writer registry, and the console summary.
export * from './build-reports.js';
export * from './registry.js';
export * from './types.js';
export * from './console-summary.js';
export * from './evidence.js';
export * from './junit-xml.js';
export * from './samples-csv.js';
export * from './summary-csv.js';
export * from './cases-csv.js';
export { renderHtmlReport, type HtmlReportInput } from './html/render-html.js';
