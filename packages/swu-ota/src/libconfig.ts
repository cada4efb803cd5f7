import { OtaError } from './errors.js';

// The subset of libconfig (https://hyperrealm.github.io/libconfig/libconfig_manual.html, "Configuration
// Files") that SWUpdate's sw-description uses: settings `name = value;` or `name: value,` in groups
// `{}`, arrays `[]` of scalars, lists `()` of anything, strings with escapes and adjacent-string
// concatenation, integers (decimal, hex, with an optional L), floats, booleans, and `#`, `//` and
// `/* */` comments. `@include` is refused: a package must be self-contained.

export type LibconfigValue = string | number | bigint | boolean | LibconfigValue[] | LibconfigGroup;
export interface LibconfigGroup {
  [name: string]: LibconfigValue;
}

/** Nesting limit for groups, arrays and lists (hostile input must not exhaust the stack). */
export const LIBCONFIG_MAX_DEPTH = 64;

const NAME_START = /[A-Za-z*]/;
const NAME_CHAR = /[-A-Za-z0-9_*]/;

class Lexer {
  pos = 0;
  constructor(readonly text: string) {}

  fail(message: string, at = this.pos): never {
    let line = 1;
    let col = 1;
    for (let i = 0; i < at && i < this.text.length; i++) {
      if (this.text[i] === '\n') {
        line++;
        col = 1;
      } else col++;
    }
    throw new OtaError('OTA_LIBCONFIG_SYNTAX', `libconfig: ${message} at line ${line}, column ${col}`);
  }

  skip(): void {
    const t = this.text;
    for (;;) {
      const c = t[this.pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') this.pos++;
      else if (c === '#' || (c === '/' && t[this.pos + 1] === '/')) {
        while (this.pos < t.length && t[this.pos] !== '\n') this.pos++;
      } else if (c === '/' && t[this.pos + 1] === '*') {
        const end = t.indexOf('*/', this.pos + 2);
        if (end < 0) this.fail('unterminated comment');
        this.pos = end + 2;
      } else return;
    }
  }

  peek(): string | undefined {
    this.skip();
    return this.text[this.pos];
  }

  expect(ch: string): void {
    if (this.peek() !== ch) this.fail(`expected '${ch}'`);
    this.pos++;
  }

  name(): string {
    this.skip();
    const start = this.pos;
    if (!NAME_START.test(this.text[this.pos] ?? '')) this.fail('expected a setting name');
    this.pos++;
    while (this.pos < this.text.length && NAME_CHAR.test(this.text[this.pos]!)) this.pos++;
    return this.text.slice(start, this.pos);
  }

  string(): string {
    let out = '';
    // Adjacent string literals are concatenated ("a" "b" is "ab").
    while (this.peek() === '"') {
      this.pos++;
      for (;;) {
        const c = this.text[this.pos];
        if (c === undefined) this.fail('unterminated string');
        this.pos++;
        if (c === '"') break;
        if (c !== '\\') {
          out += c;
          continue;
        }
        const e = this.text[this.pos++];
        if (e === 'n') out += '\n';
        else if (e === 't') out += '\t';
        else if (e === 'r') out += '\r';
        else if (e === 'f') out += '\f';
        else if (e === '\\' || e === '"') out += e;
        else if (e === 'x') {
          const hex = this.text.slice(this.pos, this.pos + 2);
          if (!/^[0-9A-Fa-f]{2}$/.test(hex)) this.fail('bad \\x escape', this.pos - 2);
          out += String.fromCharCode(Number.parseInt(hex, 16));
          this.pos += 2;
        } else this.fail('unknown escape in string', this.pos - 2);
      }
    }
    return out;
  }

  scalarWord(): string {
    this.skip();
    const start = this.pos;
    while (this.pos < this.text.length && /[-+.0-9A-Za-z_]/.test(this.text[this.pos]!)) this.pos++;
    return this.text.slice(start, this.pos);
  }
}

const INT_DEC = /^[-+]?[0-9]+L{0,2}$/;
const INT_HEX = /^0[xX][0-9A-Fa-f]+L{0,2}$/;
const FLOAT =
  /^[-+]?(?:[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?|[0-9]+[eE][-+]?[0-9]+)$/;

function toInteger(word: string, lx: Lexer, at: number): number | bigint {
  const digits = word.replace(/L+$/, '');
  const big = BigInt(digits);
  if (big > 0xffffffffffffffffn || big < -0x8000000000000000n) lx.fail('integer out of 64-bit range', at);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

function parseValue(lx: Lexer, depth: number): LibconfigValue {
  if (depth > LIBCONFIG_MAX_DEPTH) lx.fail(`nesting deeper than ${LIBCONFIG_MAX_DEPTH}`);
  const c = lx.peek();
  if (c === '"') return lx.string();
  if (c === '{') {
    lx.pos++;
    const g = parseSettings(lx, depth + 1, '}');
    lx.expect('}');
    return g;
  }
  if (c === '[' || c === '(') {
    const close = c === '[' ? ']' : ')';
    lx.pos++;
    const items: LibconfigValue[] = [];
    if (lx.peek() === close) {
      lx.pos++;
      return items;
    }
    for (;;) {
      const at = lx.pos;
      const v = parseValue(lx, depth + 1);
      if (close === ']' && (typeof v === 'object' || (items.length > 0 && typeof v !== typeof items[0]))) {
        lx.fail('an array [] holds scalars of one type; use a list () for anything else', at);
      }
      items.push(v);
      const n = lx.peek();
      if (n === ',') {
        lx.pos++;
        continue;
      }
      if (n === close) {
        lx.pos++;
        return items;
      }
      lx.fail(`expected ',' or '${close}'`);
    }
  }
  const at = lx.pos;
  const word = lx.scalarWord();
  if (word === '') lx.fail('expected a value');
  const lower = word.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (INT_DEC.test(word) || INT_HEX.test(word)) return toInteger(word, lx, at);
  if (FLOAT.test(word)) return Number(word);
  return lx.fail(`not a value: ${JSON.stringify(word.slice(0, 40))}`, at);
}

function parseSettings(lx: Lexer, depth: number, close: string | undefined): LibconfigGroup {
  const group: LibconfigGroup = {};
  for (;;) {
    const c = lx.peek();
    if (c === undefined ? close === undefined : c === close) return group;
    if (c === undefined) lx.fail(`expected '${close}'`);
    if (c === '@') lx.fail('@include and other directives are not supported');
    const at = lx.pos;
    const name = lx.name();
    const sep = lx.peek();
    if (sep !== '=' && sep !== ':') lx.fail(`expected '=' or ':' after ${name}`);
    lx.pos++;
    const value = parseValue(lx, depth);
    if (Object.hasOwn(group, name)) lx.fail(`duplicate setting ${name}`, at);
    group[name] = value;
    const t = lx.peek();
    if (t === ';' || t === ',') lx.pos++;
  }
}

/** Parses libconfig text into plain values: groups are objects, arrays and lists are arrays. */
export function parseLibconfig(text: string): LibconfigGroup {
  const lx = new Lexer(text);
  return parseSettings(lx, 0, undefined);
}

function formatString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.charCodeAt(0);
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\f') out += '\\f';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function formatValue(v: LibconfigValue, indent: string): string {
  if (typeof v === 'string') return formatString(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return `${v}L`;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new OtaError('OTA_OPTIONS', 'libconfig has no NaN or Infinity');
    if (Number.isSafeInteger(v)) return Math.abs(v) > 0x7fffffff ? `${v}L` : String(v);
    // An integer beyond 2^53 is written as a float so that it reads back as the same number.
    if (Number.isInteger(v)) return v.toExponential();
    const s = String(v);
    return /[.eE]/.test(s) ? s : `${s}.0`;
  }
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    const scalarArray = v.length > 0 && v.every((x) => typeof x !== 'object' && typeof x === typeof v[0]);
    const [open, close] = scalarArray ? ['[', ']'] : ['(', ')'];
    if (v.length === 0) return '( )';
    return `${open}\n${v.map((x) => inner + formatValue(x, inner)).join(',\n')}\n${indent}${close}`;
  }
  return `{\n${formatSettings(v, inner)}${indent}}`;
}

function formatSettings(g: LibconfigGroup, indent: string): string {
  let out = '';
  for (const [name, value] of Object.entries(g)) {
    if (!/^[A-Za-z*][-A-Za-z0-9_*]*$/.test(name)) {
      throw new OtaError('OTA_OPTIONS', `${JSON.stringify(name)} is not a libconfig setting name`);
    }
    out += `${indent}${name} = ${formatValue(value, indent)};\n`;
  }
  return out;
}

/** Formats values as libconfig text that `parseLibconfig` (and SWUpdate) read back unchanged. */
export function formatLibconfig(group: LibconfigGroup): string {
  return formatSettings(group, '');
}
