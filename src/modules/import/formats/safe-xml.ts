import { SaxesParser } from 'saxes';
import { AppError } from '../../../lib/errors.ts';
import type { Encoding } from '../bill.read.ts';
import { checkSignal } from '../import.signal.ts';

/*
 * XML of a bank file read as a stream (saxes), refusing what no statement needs and what a hostile
 * file uses: a document type (external entities, entity expansion), elements nested deeper than
 * a statement's, and a run of text (or of one tag) longer than any statement's value. Refusals are
 * 42203, found before the parser holds the offending text.
 */

export const XML_MAX_DEPTH = 100;
/** characters between two `<`: no value of a statement comes near */
export const XML_MAX_RUN = 1024 * 1024;
const CHUNK = 64 * 1024;

export interface XmlHandlers {
  open(name: string, attributes: Record<string, string>): void;
  close(name: string): void;
  text(text: string): void;
  /** called between chunks: the place to hand over what the events built (may wait) */
  drain(): Promise<void>;
}

function refused(message: string, code: string): AppError {
  return new AppError(422, 42203, `the XML file is refused: ${message}`, undefined, {
    errors: [{ row: 0, message, code, params: {} }],
  });
}

/** An element's name without its namespace prefix. */
function local(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

export async function readXml(
  buf: Uint8Array,
  encoding: Encoding,
  on: XmlHandlers,
  signal?: AbortSignal,
): Promise<void> {
  const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  let depth = 0;
  parser.on('doctype', () => {
    throw refused('it declares a document type (DTD), which a bank statement never needs', 'xml_doctype');
  });
  parser.on('error', (err) => {
    throw refused(`it is not well-formed XML (${err.message.slice(0, 200)})`, 'xml_malformed');
  });
  parser.on('opentag', (tag) => {
    if (++depth > XML_MAX_DEPTH) throw refused(`its elements nest deeper than ${XML_MAX_DEPTH} levels`, 'xml_depth');
    on.open(local(tag.name), tag.attributes as Record<string, string>);
  });
  parser.on('closetag', (tag) => {
    depth--;
    on.close(local(tag.name));
  });
  parser.on('text', (t) => on.text(t));
  parser.on('cdata', (t) => on.text(t));
  const decoder = new TextDecoder(encoding, { fatal: false });
  let run = 0;
  for (let i = 0; i < buf.length; i += CHUNK) {
    checkSignal(signal);
    let chunk = decoder.decode(buf.subarray(i, i + CHUNK), { stream: true });
    if (i === 0) chunk = chunk.replace(/^\ufeff/, '');
    const first = chunk.indexOf('<');
    if (first < 0) run += chunk.length;
    else {
      if (run + first > XML_MAX_RUN) run += first;
      else run = chunk.length - chunk.lastIndexOf('<') - 1;
    }
    if (run > XML_MAX_RUN)
      throw refused(`it holds a text or tag longer than ${XML_MAX_RUN} characters`, 'xml_text_too_long');
    parser.write(chunk);
    await on.drain();
  }
  parser.write(decoder.decode());
  parser.close();
  await on.drain();
}
