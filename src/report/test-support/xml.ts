// Test support: a tiny XML reader, enough for junit.xml (elements, attributes, text), strict about balance and raw '<'.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string): string => s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ENTITIES[e]!);

/** A tiny XML reader, enough for junit.xml: elements, attributes, text; throws on anything unbalanced or raw '<'. */
export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  const token = /<\?[^>]*\?>|<(\/?)([A-Za-z][\w.-]*)((?:\s+[\w.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = token.exec(xml)) !== null) {
    consumed = token.lastIndex;
    const [, close, name, attrText, selfClose, text] = match;
    const top = stack.at(-1)!;
    if (text !== undefined) top.text += decode(text);
    else if (close) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
    } else if (name) {
      const attrs = Object.fromEntries([...(attrText ?? '').matchAll(/([\w.-]+)="([^"]*)"/g)].map(([, k, v]) => [k!, decode(v!)]));
      const element: XmlElement = { name, attrs, children: [], text: '' };
      top.children.push(element);
      if (!selfClose) stack.push(element);
    }
  }
  if (consumed !== xml.length || stack.length !== 1) throw new Error(`malformed XML at ${consumed}`);
  return root.children[0]!;
}
