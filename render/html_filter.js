// The display filter language of mcdissect -Y (the Go package filter), run
// by the page on its records. It follows the Go code construct by
// construct, so that a filter keeps the same records in both: the shared
// list filter/testdata/shared.txt is run through both by the tests. Values
// are exact: integers and times are BigInts, texts and bytes are UTF-8
// bytes compared byte by byte, times in seconds compare as decimals.
// What differs: positions count UTF-16 units, not bytes, and matches is
// JavaScript's regular expression engine, not Go's RE2.
var MCFilter = (function () {
'use strict';

function FilterError(msg, pos, end) { this.msg = msg; this.pos = pos; this.end = end; }

var utf8 = new TextEncoder(), text = new TextDecoder('utf-8');
function quote(s) { return JSON.stringify(s); }

// ---- the lexer (lex.go) ----
var OPS = ['===', '!==', '==', '!=', '<=', '>=', '~=', '&&', '||', '^^', '..', '<', '>', '~', '&', '!', '(', ')', '{', '}', ','];
function isWordChar(c) {
  return c >= 97 && c <= 122 || c >= 65 && c <= 90 || c >= 48 && c <= 57 || c === 95 || c === 46 || c === 45 || c === 58 || c === 47 || c >= 128;
}
function isHex(c) { return /^[0-9a-fA-F]$/.test(c); }

function lex(expr) {
  var toks = [], i = 0;
  while (i < expr.length) {
    var c = expr[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') { i++; continue; }
    if (c === '"' || c === 'r' && expr[i + 1] === '"') { var t = lexString(expr, i); toks.push(t); i = t.end; continue; }
    if (c === "'") { t = lexChar(expr, i); toks.push(t); i = t.end; continue; }
    if (c === '[') {
      var j = expr.indexOf(']', i);
      if (j < 0) throw new FilterError('The right bracket was missing from a slice.', i, i + 1);
      toks.push({k: 'slice', s: expr.slice(i + 1, j), pos: i, end: j + 1});
      i = j + 1;
      continue;
    }
    if (isWordChar(expr.charCodeAt(i)) && expr.slice(i, i + 2) !== '..') {
      j = i;
      while (j < expr.length && isWordChar(expr.charCodeAt(j)) && expr.slice(j, j + 2) !== '..') j++;
      toks.push({k: 'word', s: expr.slice(i, j), pos: i, end: j});
      i = j;
      continue;
    }
    var op = '';
    for (var o = 0; o < OPS.length; o++) if (expr.slice(i, i + OPS[o].length) === OPS[o]) { op = OPS[o]; break; }
    if (!op) {
      var ch = String.fromCodePoint(expr.codePointAt(i));
      throw new FilterError(quote(ch) + ' was unexpected in this context.', i, i + ch.length);
    }
    toks.push({k: 'op', s: op, pos: i, end: i + op.length});
    i += op.length;
  }
  toks.push({k: 'eof', s: '', pos: expr.length, end: expr.length});
  return toks;
}
function pushUTF8(b, s) { var e = utf8.encode(s); for (var k = 0; k < e.length; k++) b.push(e[k]); }
// A string's token holds its bytes (b) and their text (s).
function lexString(expr, i) {
  var start = i, raw = expr[i] === 'r', b = [];
  if (raw) i++;
  i++;
  for (;;) {
    if (i >= expr.length) throw new FilterError('The final quote was missing from a quoted string.', start, expr.length);
    var c = expr[i];
    if (c === '"') { var u = new Uint8Array(b); return {k: 'str', b: u, s: text.decode(u), pos: start, end: i + 1}; }
    if (c !== '\\') { var cp = String.fromCodePoint(expr.codePointAt(i)); pushUTF8(b, cp); i += cp.length; continue; }
    if (i + 1 >= expr.length) throw new FilterError('The final quote was missing from a quoted string.', start, expr.length);
    if (raw) { b.push(92); pushUTF8(b, expr[i + 1]); i += 2; continue; }
    var r = unescape(b, expr.slice(i));
    if (!r.ok) throw new FilterError('Invalid escape sequence ' + expr.slice(i, i + r.n) + '.', i, i + r.n);
    i += r.n;
  }
}
// unescape decodes the escape at the start of s into b; n is its length.
function unescape(b, s) {
  if (s.length < 2) return {n: s.length, ok: false};
  var c = s[1], simple = {"'": 39, '"': 34, '\\': 92, a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11};
  if (simple[c] !== undefined) { b.push(simple[c]); return {n: 2, ok: true}; }
  if (c === 'x') {
    var j = 2;
    while (j < s.length && j < 4 && isHex(s[j])) j++;
    if (j === 2) return {n: 2, ok: false};
    b.push(parseInt(s.slice(2, j), 16));
    return {n: j, ok: true};
  }
  if (c === 'u' || c === 'U') {
    var w = c === 'U' ? 8 : 4;
    if (s.length < 2 + w) return {n: s.length, ok: false};
    var h = s.slice(2, 2 + w);
    if (!/^[0-9a-fA-F]+$/.test(h)) return {n: 2 + w, ok: false};
    var v = parseInt(h, 16);
    if (v > 0x10ffff || v >= 0xd800 && v <= 0xdfff) return {n: 2 + w, ok: false};
    pushUTF8(b, String.fromCodePoint(v));
    return {n: 2 + w, ok: true};
  }
  if (c >= '0' && c <= '7') {
    j = 1;
    while (j < s.length && j < 4 && s[j] >= '0' && s[j] <= '7') j++;
    v = parseInt(s.slice(1, j), 8);
    if (v > 255) return {n: j, ok: false};
    b.push(v);
    return {n: j, ok: true};
  }
  return {n: 1 + String.fromCodePoint(s.codePointAt(1)).length, ok: false};
}
function lexChar(expr, i) {
  var j = i + 1, b = [];
  if (j < expr.length && expr[j] === '\\') {
    var r = unescape(b, expr.slice(j));
    if (!r.ok) throw new FilterError('Invalid escape sequence ' + expr.slice(j, j + r.n) + '.', j, j + r.n);
    j += r.n;
  } else if (j < expr.length && expr[j] !== "'") {
    pushUTF8(b, expr[j]);
    j++;
  }
  if (b.length !== 1 || j >= expr.length || expr[j] !== "'") {
    var end = expr.indexOf("'", i + 1);
    end = end < 0 ? expr.length : end + 1;
    throw new FilterError("A character constant holds one byte, like 'a' or '\\x0a'.", i, end);
  }
  return {k: 'char', b: new Uint8Array(b), s: String.fromCharCode(b[0]), pos: i, end: j + 1};
}

// ---- fields: the page's table of every field (META.ff) ----
var KINDS = {n: 'label', u: 'unsigned integer', i: 'signed integer', b: 'boolean', f: 'float',
  s: 'string', x: 'byte string', 4: 'IPv4 address', 6: 'IPv6 address', t: 'date and time'};
function kindName(t) { return KINDS[t.k]; }
var FF = [], BYNAME = {}, PCOLS = [], PPROTOS = [], DERIVED = [];
// setFields takes the page's META: ff, the table of fields ([name, kind,
// flags, value names or 0, rule]), pcols and pprotos (what each record's
// pf and pr hold).
function setFields(meta) {
  FF = meta.ff || [];
  PCOLS = meta.pcols || [];
  PPROTOS = meta.pprotos || [];
  BYNAME = {};
  DERIVED = [];
  for (var i = 0; i < FF.length; i++) BYNAME[FF[i][0]] = i;
  for (i = 0; i < FF.length; i++) if (FF[i][4]) DERIVED.push([i, FF[i][4]]);
}
// resolve finds a field by name, or a keyed field and the key.
function resolve(name) {
  if (Object.prototype.hasOwnProperty.call(BYNAME, name)) return {i: BYNAME[name], key: ''};
  for (var d = name.lastIndexOf('.'); d > 0; d = name.lastIndexOf('.', d - 1)) {
    var p = name.slice(0, d);
    if (Object.prototype.hasOwnProperty.call(BYNAME, p) && FF[BYNAME[p]][2].indexOf('k') >= 0) return {i: BYNAME[p], key: name.slice(d + 1)};
  }
  return null;
}
function fieldType(i) {
  var f = FF[i], k = f[1], t = {k: k, names: f[3] || null};
  if (k === 'p' || k === 'n') t.k = 'n';
  if (k === 'w') t.k = 'x';
  if (k === '4' || k === '6') { t.k = 'a'; t.fam = +k; }
  return t;
}
function typeName(t) { return t.k === 'a' ? 'IPv' + t.fam + ' address' : KINDS[t.k]; }

// ---- values ----
// uint, int, bool, time: BigInt; float {f, t (exact decimal text or null)};
// string, bytes: Uint8Array; address {a: bytes, bits}.
var TWO64 = 1n << 64n;
function cmpBytes(a, b) {
  var n = Math.min(a.length, b.length);
  for (var i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
function indexOfBytes(h, n) {
  outer: for (var i = 0; i + n.length <= h.length; i++) {
    for (var j = 0; j < n.length; j++) if (h[i + j] !== n[j]) continue outer;
    return i;
  }
  return -1;
}
function splitDecimal(s) {
  var m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || m[2] === '' && (m[3] === undefined || m[3] === '')) return null;
  return {neg: m[1] === '-', ip: m[2].replace(/^0+/, ''), fp: (m[3] || '').replace(/0+$/, '')};
}
function cmpDecimal(a, b) {
  var x = splitDecimal(a), y = splitDecimal(b);
  if (!x || !y) return null;
  if (!x.ip && !x.fp) x.neg = false;
  if (!y.ip && !y.fp) y.neg = false;
  if (x.neg !== y.neg) return x.neg ? -1 : 1;
  var c = x.ip.length !== y.ip.length ? (x.ip.length < y.ip.length ? -1 : 1) : x.ip < y.ip ? -1 : x.ip > y.ip ? 1 : 0;
  if (c === 0) c = x.fp < y.fp ? -1 : x.fp > y.fp ? 1 : 0;
  return x.neg ? -c : c;
}
function cmpNum(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
function compare(k, a, b) {
  switch (k) {
    case 'u': case 'i': case 'b': case 't': return cmpNum(a, b);
    case 'f':
      if (a.t && b.t) { var c = cmpDecimal(a.t, b.t); if (c !== null) return c; }
      // Go's cmp.Compare: NaN is less than everything, and equal to NaN.
      if (isNaN(a.f)) return isNaN(b.f) ? 0 : -1;
      if (isNaN(b.f)) return 1;
      return cmpNum(a.f, b.f);
    case 's': case 'x': return cmpBytes(a, b);
    case 'a':
      var bits = Math.min(a.bits, b.bits);
      if (bits < a.a.length * 8) return cmpBytes(maskAddr(a.a, bits), maskAddr(b.a, bits));
      return cmpBytes(a.a, b.a);
  }
  return 0;
}
function maskAddr(a, bits) {
  var m = new Uint8Array(a.length);
  for (var i = 0; i < a.length; i++) {
    var keep = Math.max(0, Math.min(8, bits - 8 * i));
    m[i] = a[i] & (0xff << (8 - keep)) & 0xff;
  }
  return m;
}

// ---- addresses, as Go's net/netip reads and writes them ----
function parseIPv4(s) {
  var p = s.split('.');
  if (p.length !== 4) return null;
  var a = new Uint8Array(4);
  for (var i = 0; i < 4; i++) {
    if (!/^\d{1,3}$/.test(p[i]) || p[i].length > 1 && p[i][0] === '0' || +p[i] > 255) return null;
    a[i] = +p[i];
  }
  return a;
}
function parseIPv6(s) {
  if (s.indexOf('%') >= 0) return null;
  var tail = null, m = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (m) { tail = parseIPv4(m[2]); if (!tail) return null; s = m[1] + '0:0'; }
  var halves = s.split('::');
  if (halves.length > 2) return null;
  function groups(h) {
    if (h === '') return [];
    var g = h.split(':');
    for (var i = 0; i < g.length; i++) if (!/^[0-9a-fA-F]{1,4}$/.test(g[i])) return null;
    return g.map(function (x) { return parseInt(x, 16); });
  }
  var hi = groups(halves[0]), lo = halves.length === 2 ? groups(halves[1]) : [];
  if (!hi || !lo) return null;
  var n = hi.length + lo.length;
  if (halves.length === 2 ? n > 7 : n !== 8) return null;
  var all = hi.concat(new Array(8 - n).fill(0), lo), a = new Uint8Array(16);
  for (var i = 0; i < 8; i++) { a[2 * i] = all[i] >> 8; a[2 * i + 1] = all[i] & 0xff; }
  if (tail) a.set(tail, 12);
  return a;
}
function formatAddr(a) {
  if (a.length === 4) return Array.prototype.join.call(a, '.');
  var g = [];
  for (var i = 0; i < 8; i++) g.push(a[2 * i] << 8 | a[2 * i + 1]);
  var mapped = g.slice(0, 5).every(function (x) { return x === 0; }) && g[5] === 0xffff;
  if (mapped) return '::ffff:' + Array.prototype.join.call(a.subarray(12), '.');
  var best = -1, bestN = 0;
  for (i = 0; i < 8;) {
    if (g[i] !== 0) { i++; continue; }
    var j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestN && j - i > 1) { best = i; bestN = j - i; }
    i = j;
  }
  var out = '';
  for (i = 0; i < 8; i++) {
    if (i === best) { out += '::'; i += bestN - 1; continue; }
    if (out && out[out.length - 1] !== ':') out += ':';
    out += g[i].toString(16);
  }
  return out;
}
function parseAddr(s, fam) {
  var bits = -1, a;
  var slash = s.indexOf('/');
  if (slash >= 0) {
    var b = s.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(b)) return null;
    bits = +b;
    s = s.slice(0, slash);
  }
  a = s.indexOf(':') >= 0 ? parseIPv6(s) : parseIPv4(s);
  if (!a || fam === 4 && a.length !== 4 || fam === 6 && a.length !== 16) return null;
  if (bits > a.length * 8) return null;
  return {a: a, bits: bits < 0 ? a.length * 8 : bits};
}

// ---- numbers, as Go's strconv reads and writes them ----
function parseInteger(s, signed) {
  var neg = false, body = s;
  if (signed && (s[0] === '+' || s[0] === '-')) { neg = s[0] === '-'; body = s.slice(1); }
  var m = /^0[xX]([0-9a-fA-F_]+)$/.exec(body) || /^0[bB]([01_]+)$/.exec(body) || /^0[oO]([0-7_]+)$/.exec(body);
  var v;
  if (m) {
    var digits = m[1];
    if (/^_|__|_$/.test(digits)) return null;
    var base = /^0[xX]/.test(body) ? 16 : /^0[bB]/.test(body) ? 2 : 8;
    v = 0n;
    digits.replace(/_/g, '').split('').forEach(function (c) { v = v * BigInt(base) + BigInt(parseInt(c, 16)); });
  } else if (body.length > 1 && body[0] === '0') {
    if (!/^0[0-7_]*$/.test(body) || /__|_$/.test(body)) return null;
    v = 0n;
    body.slice(1).replace(/_/g, '').split('').forEach(function (c) { v = v * 8n + BigInt(c); });
  } else if (/^\d+$/.test(body)) {
    v = BigInt(body);
  } else return null;
  if (neg) v = -v;
  if (signed ? v < -(1n << 63n) || v >= 1n << 63n : v >= TWO64) return null;
  return v;
}
function parseFloatLit(s) {
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s[0] === '-' ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(s)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return null;
  var f = Number(s);
  return isFinite(f) ? f : null;
}
// Go's strconv.FormatFloat(f, 'f', -1, 64): shortest digits, no exponent.
function formatFloat(f) {
  if (isNaN(f)) return 'NaN';
  if (!isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  var s = f.toString();
  if (Object.is(f, -0)) return '-0';
  var m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  var digits = m[2] + (m[3] || ''), e = +m[4], point = 1 + e;
  if (point <= 0) return m[1] + '0.' + '0'.repeat(-point) + digits;
  if (point >= digits.length) return m[1] + digits + '0'.repeat(point - digits.length);
  return m[1] + digits.slice(0, point) + '.' + digits.slice(point);
}

// ---- times (timelit.go) ----
var MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
var TIME_EXAMPLE = 'Example: "Nov 12, 1999 08:55:44.123" or "2011-07-04 12:34:56"';
function daysIn(y, m) { var d = new Date(0); d.setUTCFullYear(y, m, 0); return d.getUTCDate(); }
// parseAbsTime returns {ns: BigInt} or {err, from, to} (to 0: all of it).
function parseAbsTime(s) {
  var i = 0, t = {year: 0, month: 0, day: 0, hour: 0, min: 0, sec: 0, nsec: 0, at: []}, zone = null;
  var notTime = {err: quote(s) + ' is not a valid absolute time. ' + TIME_EXAMPLE, to: 0};
  function spaces() { var n = 0; while (i < s.length && (s[i] === ' ' || s[i] === '\t')) { i++; n++; } return n; }
  function digits(lo, hi) {
    var j = i, v = 0;
    while (j < s.length && j - i < hi && s[j] >= '0' && s[j] <= '9') { v = v * 10 + (s.charCodeAt(j) - 48); j++; }
    if (j - i < lo) return null;
    var from = i;
    i = j;
    return {v: v, from: from};
  }
  function byte(c) { if (s[i] === c) { i++; return true; } return false; }
  function trailing() {
    var from = i;
    while (from < s.length && s[from] === ' ') from++;
    if (from >= s.length) return {err: quote(s) + ' is not a whole time: write at least the hour and minutes, as in "2026-11-22 10:19".', to: 0};
    return {err: 'Unexpected data after time value: ' + quote(s.slice(from)) + ' (a zone goes right after the time: Z, +01:00, +0100, or " UTC").', from: from, to: s.length};
  }
  function fraction(legacy) {
    var dot = i - 1, start = i;
    while (i < s.length && s[i] >= '0' && s[i] <= '9') { if (i - start < 9) t.nsec = t.nsec * 10 + (s.charCodeAt(i) - 48); i++; }
    var n = i - start;
    if (n === 0) return {err: 'Subseconds value is not a number: write digits after the point, as in 10:19:40.5.', from: dot, to: dot + 1};
    if (legacy && n > 9) return {err: 'Subseconds value is invalid: at most nine digits, to the nanosecond.', from: start, to: i};
    for (; n < 9; n++) t.nsec *= 10;
    return null;
  }
  function utc() {
    var at = i;
    if (spaces() > 0 && s.slice(i, i + 3) === 'UTC') { i += 3; return true; }
    i = at;
    return false;
  }
  function instant() {
    function bad(k, what, v, rng) { return {err: what + ' ' + v + ' is out of range (' + rng + ') in ' + quote(s) + '.', from: t.at[k][0], to: t.at[k][1]}; }
    if (t.month < 1 || t.month > 12) return bad(1, 'Month', t.month, '1 to 12');
    var dim = daysIn(t.year, t.month);
    if (t.day < 1 || t.day > dim) {
      var mname = new Date(Date.UTC(2000, t.month - 1, 1)).toLocaleString('en', {month: 'long', timeZone: 'UTC'});
      return bad(2, 'Day', t.day, '1 to ' + dim + ' in ' + mname + ' ' + t.year);
    }
    if (t.hour > 23) return bad(3, 'Hour', t.hour, '0 to 23');
    if (t.min > 59) return bad(4, 'Minute', t.min, '0 to 59');
    if (t.sec > 60) return bad(5, 'Second', t.sec, '0 to 60');
    var d = new Date(0), ms;
    if (zone === null) {
      d.setFullYear(t.year, t.month - 1, t.day);
      d.setHours(t.hour, t.min, t.sec, 0);
      ms = d.getTime();
    } else {
      d.setUTCFullYear(t.year, t.month - 1, t.day);
      d.setUTCHours(t.hour, t.min, t.sec, 0);
      ms = d.getTime() - zone * 1000;
    }
    return {ns: BigInt(ms) * 1000000n + BigInt(t.nsec)};
  }
  spaces();
  var r, ok;
  if (/[a-zA-Z]/.test(s[i] || '')) {
    var start = i;
    while (i < s.length && /[a-zA-Z]/.test(s[i])) i++;
    t.month = MONTHS.indexOf(s.slice(start, i).toLowerCase()) + 1;
    if (t.month === 0) return notTime;
    t.at[1] = [start, i];
    spaces();
    if (!(r = digits(1, 2)) || !byte(',')) return notTime;
    t.day = r.v; t.at[2] = [r.from, i - 1];
    spaces();
    if (!(r = digits(4, 4))) return notTime;
    t.year = r.v; t.at[0] = [r.from, i];
    if (spaces() === 0) return notTime;
    var parts = ['hour', 'min', 'sec'];
    for (var k = 0; k < 3; k++) {
      if (k > 0 && !byte(':')) return notTime;
      if (!(r = digits(1, 2))) return notTime;
      t[parts[k]] = r.v; t.at[3 + k] = [r.from, i];
    }
    if (byte('.')) { var e = fraction(true); if (e) return e; }
    if (utc()) zone = 0;
    spaces();
    if (i !== s.length) return trailing();
    return instant();
  }
  if (!(r = digits(4, 4)) || !byte('-')) return notTime;
  t.year = r.v; t.at[0] = [r.from, r.from + 4];
  if (!(r = digits(1, 2)) || !byte('-')) return notTime;
  t.month = r.v; t.at[1] = [r.from, i - 1];
  if (!(r = digits(1, 2))) return notTime;
  t.day = r.v; t.at[2] = [r.from, i];
  var date = i;
  spaces();
  if (i === s.length) return instant();
  i = date;
  if (!byte('T') && spaces() === 0) return trailing();
  if (!(r = digits(1, 2))) return trailing();
  t.hour = r.v; t.at[3] = [r.from, i];
  if (!byte(':')) return trailing();
  if (!(r = digits(1, 2))) return trailing();
  t.min = r.v; t.at[4] = [r.from, i];
  if (byte(':')) {
    if (!(r = digits(1, 2))) return trailing();
    t.sec = r.v; t.at[5] = [r.from, i];
    if (s[i] === '.' || s[i] === ',') { i++; e = fraction(false); if (e) return e; }
  }
  if (byte('Z')) zone = 0;
  else if (s[i] === '+' || s[i] === '-') {
    start = i;
    var sign = s[i] === '-' ? -1 : 1;
    i++;
    var h = digits(2, 2);
    if (!h) { i = start; return trailing(); }
    var m = 0, colon = byte(':'), mm = digits(2, 2);
    if (mm) m = mm.v; else if (colon) { i = start; return trailing(); }
    if (h.v > 23 || m > 59) return {err: 'The zone offset ' + s.slice(start, i) + ' is out of range (at most \u00b123:59).', from: start, to: i};
    zone = sign * (h.v * 3600 + m * 60);
  } else if (utc()) zone = 0;
  spaces();
  if (i !== s.length) return trailing();
  return instant();
}

// ---- the parser (parse.go): it type-checks and builds closures ----
var KEYWORDS = ['and', 'or', 'xor', 'not', 'in', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'any_eq', 'all_ne', 'all_eq', 'any_ne', 'contains', 'matches', 'bitwise_and'];
var RELATIONS = {
  '==': ['eq', false], eq: ['eq', false], any_eq: ['eq', false],
  '!=': ['ne', true], ne: ['ne', true], all_ne: ['ne', true],
  '===': ['eq', true], all_eq: ['eq', true],
  '!==': ['ne', false], any_ne: ['ne', false], '~=': ['ne', false],
  '<': ['lt', false], lt: ['lt', false], '<=': ['le', false], le: ['le', false],
  '>': ['gt', false], gt: ['gt', false], '>=': ['ge', false], ge: ['ge', false],
  contains: ['contains', false], matches: ['matches', false], '~': ['matches', false]
};
var FUNCTIONS = ['len', 'count', 'lower', 'upper', 'string'];

function looksLikeField(s) {
  if (!/^[A-Za-z][A-Za-z0-9_.-]*$/.test(s)) return false;
  var h = s.replace(/[.-]/g, '');
  return !(h.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(h));
}
function editDistance(a, b, limit) {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  var prev = [], cur = [];
  for (var j = 0; j <= b.length; j++) prev[j] = j;
  for (var i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j - 1] + (a[i - 1] !== b[j - 1] ? 1 : 0), prev[j] + 1, cur[j - 1] + 1);
    var t = prev; prev = cur; cur = t;
  }
  return Math.min(prev[b.length], limit);
}
function suggest(name) {
  var best = '', bestD = 3;
  // In the order of -G fields: the registries sorted by protocol name.
  for (var i = 0; i < FF.length; i++) {
    var d = editDistance(name, FF[i][0], bestD);
    if (d < bestD && 3 * d <= name.length) { best = FF[i][0]; bestD = d; }
  }
  return best;
}

function Parser(expr, toks) { this.expr = expr; this.toks = toks; this.i = 0; }
var P = Parser.prototype;
P.peek = function () { return this.toks[this.i]; };
P.peek2 = function () { return this.toks[Math.min(this.i + 1, this.toks.length - 1)]; };
P.next = function () { var t = this.toks[this.i]; if (t.k !== 'eof') this.i++; return t; };
function is(t, alts) { return (t.k === 'word' || t.k === 'op') && alts.indexOf(t.s) >= 0; }
P.accept = function (alts) { if (is(this.peek(), alts)) { this.i++; return true; } return false; };
P.errTok = function (t, msg) { return new FilterError(msg, t.pos, t.end); };
P.unexpected = function (t) {
  if (t.k === 'eof') return new FilterError('Unexpected end of filter expression.', t.pos, t.end);
  return this.errTok(t, quote(this.expr.slice(t.pos, t.end)) + ' was unexpected in this context.');
};
P.text = function (o) { return this.expr.slice(o.pos, o.end); };

P.parseExpr = function () {
  var a = this.parseXor();
  while (this.accept(['or', '||'])) { var x = a, y = this.parseXor(); a = (function (x, y) { return function (r, c) { return x(r, c) || y(r, c); }; })(x, y); }
  return a;
};
P.parseXor = function () {
  var a = this.parseAnd();
  while (this.accept(['xor', '^^'])) { var x = a, y = this.parseAnd(); a = (function (x, y) { return function (r, c) { return x(r, c) !== y(r, c); }; })(x, y); }
  return a;
};
P.parseAnd = function () {
  var a = this.parseNot();
  while (this.accept(['and', '&&'])) { var x = a, y = this.parseNot(); a = (function (x, y) { return function (r, c) { return x(r, c) && y(r, c); }; })(x, y); }
  return a;
};
P.parseNot = function () {
  if (this.accept(['not', '!'])) { var a = this.parseNot(); return function (r, c) { return !a(r, c); }; }
  var t = this.peek();
  if (is(t, ['('])) {
    this.next();
    var n = this.parseExpr();
    if (!this.accept([')'])) {
      if (this.peek().k === 'eof') throw this.errTok(t, 'The closing ")" of this "(" is missing.');
      throw this.unexpected(this.peek());
    }
    return n;
  }
  return this.parseTest();
};
P.parseTest = function () {
  var quant = '', t = this.peek();
  if (t.k === 'word' && (t.s === 'any' || t.s === 'all') && this.peek2().k === 'word') { quant = t.s; this.next(); }
  var lhs = this.parseValue();
  t = this.peek();
  var rl = (t.k === 'op' || t.k === 'word') && Object.prototype.hasOwnProperty.call(RELATIONS, t.s) ? RELATIONS[t.s] : null;
  if (rl) {
    this.next();
    var rhs = this.parseValue();
    return this.compare(lhs, t, rl[0], quant ? quant === 'all' : rl[1], rhs);
  }
  if (is(t, ['in']) || is(t, ['not']) && is(this.peek2(), ['in'])) {
    var neg = this.accept(['not']);
    this.next();
    var n = this.parseSet(lhs, quant === 'all');
    return neg ? function (r, c) { return !n(r, c); } : n;
  }
  if (quant) throw this.errTok(t, '"' + quant + '" needs a comparison after the field, as in ' + quant + ' tcp.port > 1024.');
  return this.exists(lhs);
};

// An operand: an entity (e: {t, collect(rec, c, out)}) or a literal token.
P.parseValue = function () {
  var o = this.parseEntity();
  for (;;) {
    var t = this.peek();
    if (!is(t, ['&', 'bitwise_and'])) return o;
    this.next();
    var m = this.parseEntity();
    if (!o.e) throw this.errLiteralSide(o, t);
    var k = o.e.t.k;
    if (k !== 'u' && k !== 'i') throw new FilterError(this.text(o) + ' (type=' + typeName(o.e.t) + ') cannot be used with the bitwise and: only integer fields can.', o.pos, o.end);
    if (m.e) throw new FilterError('The mask of a bitwise and must be a number, like 0x80.', m.pos, m.end);
    var vs = this.literal(o, m, 'eq'), mask = vs[0], inner = o.e;
    o = {e: {t: inner.t, band: true, collect: (function (inner, mask, signed) {
      return function (r, c, out) {
        var b = out.length; inner.collect(r, c, out);
        for (var i = b; i < out.length; i++) out[i] = signed ? BigInt.asIntN(64, out[i] & mask) : BigInt.asUintN(64, out[i] & mask);
      };
    })(inner, mask, k === 'i')}, lit: o.lit, pos: o.pos, end: m.end, field: false};
  }
};
P.parseEntity = function () {
  var t = this.next(), o = {e: null, lit: t, pos: t.pos, end: t.end, field: false};
  if (t.k === 'word') {
    if (KEYWORDS.indexOf(t.s) >= 0) throw this.unexpected(t);
    var f = resolve(t.s);
    if (f) { o.e = fieldEntity(f); o.field = true; }
    else if (is(this.peek(), ['('])) this.parseCall(o);
  } else if (t.k !== 'str' && t.k !== 'char') throw this.unexpected(t);
  while (this.peek().k === 'slice') this.parseSlice(o, this.next());
  return o;
};

// values of a field in a record: pseudo-fields from rec.pf, others from its nodes.
function fieldEntity(f, sliced) {
  var ff = FF[f.i], t = fieldType(f.i), name = ff[0], pseudo = ff[2].indexOf('p') >= 0;
  if (sliced) t = {k: 'x'};
  var e = {t: t, wire: sliced || ff[1] === 'w', f: f, pseudo: pseudo};
  e.collect = function (r, c, out) {
    if (pseudo) {
      var pf = pseudoOf(r)[f.i];
      if (pf) for (var k = 0; k < pf.length; k++) out.push(convert(t, ff[1], pf[k], r, c));
      return;
    }
    for (var i = 0; i < r.n.length; i++) {
      var n = r.n[i];
      if (FIELDS_NAME(n[0]) !== name || (f.key ? n[7] !== f.key : false)) continue;
      if (e.wire) { out.push(nodeWire(r, n)); continue; }
      var v = convert(t, ff[1], n[6], r, c);
      if (v !== undefined) out.push(v);
    }
  };
  return e;
}
// pseudoOf gives a record's pseudo-field values by field, made once: the
// columns it carries (pf), the protocols it has (pr), and the fields the
// page makes itself by their rules (render/html_filter.go, derive).
function pseudoOf(r) {
  if (r._pf) return r._pf;
  var m = {}, pf = r.pf || [], j;
  for (j = 0; j < pf.length; j++) if (pf[j] !== null) m[PCOLS[j]] = Array.isArray(pf[j]) ? pf[j] : [pf[j]];
  for (j = 0; j < PPROTOS.length; j++) if (Math.floor(r.pr / Math.pow(2, j)) % 2) m[PPROTOS[j]] = [null];
  for (j = 0; j < DERIVED.length; j++) {
    var idx = DERIVED[j][0], rule = DERIVED[j][1], v = null;
    if (rule.r) {
      switch (rule.r) {
        case 'f': v = [r.f]; break;
        case 'k': v = [r.k]; break;
        case 'dir': v = [r.dir]; break;
        case 'm': v = r.m ? [r.m] : null; break;
        case 'st': v = r.st >= 0 ? [r.st] : null; break;
        case 'e': v = r.e && r.e.length ? r.e.map(function (e) { return HOOKS.expertName(e[1]); }) : null; break;
        case 'parts': v = r.parts && r.parts.length ? r.parts.map(function (p) { return p[0]; }) : null; break;
      }
    } else if (rule.both) {
      var a = m[BYNAME[rule.both[0]]] || [], b = m[BYNAME[rule.both[1]]] || [];
      v = a.length || b.length ? a.concat(b) : null;
    } else if (rule.bit) {
      var fl = m[BYNAME[rule.bit[0]]];
      v = fl ? fl.map(function (x) { return (Number(x) & rule.bit[1]) ? 1 : 0; }) : null;
    } else if (rule.epoch) {
      var ts = m[BYNAME[rule.epoch]];
      v = ts ? ts.map(function (x) {
        var ns = BigInt(x), neg = ns < 0n, abs = neg ? -ns : ns, frac = String(abs % 1000000000n);
        var t = (neg ? '-' : '') + String(abs / 1000000000n) + '.' + '0'.repeat(9 - frac.length) + frac;
        return {f: Number(ns) / 1e9, t: t};
      }) : null;
    }
    if (v) m[idx] = v;
  }
  r._pf = m;
  return m;
}
function nodeWire(r, n) {
  var b = HOOKS.bytes(r), lo = n[2], hi = n[2] + n[3];
  if (lo < 0 || hi > b.length || lo > hi) return new Uint8Array(0);
  return b.subarray(lo, hi);
}
// convert reads a value as the page holds it; a value the page does not
// hold (a redacted one) counts as missing.
function convert(t, kind, v, r, c) {
  if (t.k === 'n') return null;
  if (v === null || v === undefined) { c.missing = true; return undefined; }
  switch (t.k) {
    case 'u': case 'i': case 't': return BigInt(v);
    case 'b': return v === true || v === 1 ? 1n : 0n;
    case 'f':
      if (typeof v === 'object') return v;
      return typeof v === 'string' ? {f: Number(v), t: /^[+-]?\d+(\.\d*)?$/.test(v) ? v : null} : {f: v, t: null};
    case 's':
      if (Array.isArray(v)) return HOOKS.bytes(r).subarray(v[0], v[0] + v[1]);
      return utf8.encode(v);
    case 'x':
      if (Array.isArray(v)) return HOOKS.bytes(r).subarray(v[0], v[0] + v[1]);
      var b = new Uint8Array(v.length / 2);
      for (var i = 0; i < b.length; i++) b[i] = parseInt(v.substr(2 * i, 2), 16);
      return b;
    case 'a': return {a: parseAddr(v, t.fam).a, bits: t.fam === 4 ? 32 : 128};
  }
  return null;
}
var FIELDS_NAME = function (i) { return HOOKS.fieldName(i); };

P.parseCall = function (o) {
  var name = o.lit, open = this.next(), arg = this.parseValue(), t = this.peek();
  if (!is(t, [')'])) {
    if (t.k === 'eof') throw this.errTok(open, 'The closing ")" of this "(" is missing.');
    if (is(t, [','])) throw this.errTok(t, 'Function ' + name.s + '() takes one argument.');
    throw this.unexpected(t);
  }
  o.end = this.next().end;
  if (FUNCTIONS.indexOf(name.s) < 0) {
    var msg = "Function '" + name.s + "' does not exist";
    if (['max', 'min', 'abs'].indexOf(name.s) >= 0) msg = "Function '" + name.s + "' is not supported by mcdissect";
    throw this.errTok(name, msg + ' (functions: ' + FUNCTIONS.join(', ') + ').');
  }
  var self = this;
  if (!arg.e) throw new FilterError('Only fields can be used as parameter for ' + name.s + '().', arg.pos, arg.end);
  var k = arg.e.t.k, in_ = arg.e;
  function bad(what) {
    return new FilterError('Only ' + what + ' can be used as parameter for ' + name.s + '(), not ' + self.text(arg) + ' (type=' + typeName(arg.e.t) + ').', arg.pos, arg.end);
  }
  switch (name.s) {
    case 'len':
      if (k !== 's' && k !== 'x') throw bad('string and byte fields');
      o.e = {t: {k: 'u'}, fn: true, collect: function (r, c, out) { var b = out.length; in_.collect(r, c, out); for (var i = b; i < out.length; i++) out[i] = BigInt(out[i].length); }};
      break;
    case 'count':
      if (!arg.field) throw bad('fields');
      o.e = {t: {k: 'u'}, fn: true, collect: function (r, c, out) {
        var b = out.length; in_.collect(r, c, out); var n = out.length - b; out.length = b; if (n > 0) out.push(BigInt(n));
      }};
      break;
    case 'lower': case 'upper':
      if (k !== 's') throw bad('string type fields');
      var up = name.s === 'upper';
      o.e = {t: {k: 's'}, fn: true, collect: function (r, c, out) {
        var b = out.length; in_.collect(r, c, out);
        for (var i = b; i < out.length; i++) {
          var v = out[i], w = new Uint8Array(v.length);
          for (var j = 0; j < v.length; j++) {
            var ch = v[j];
            if (up && ch >= 97 && ch <= 122) ch -= 32; else if (!up && ch >= 65 && ch <= 90) ch += 32;
            w[j] = ch;
          }
          out[i] = w;
        }
      }};
      break;
    case 'string':
      if (k !== 'u' && k !== 'i' && k !== 'f' && k !== 'a') throw bad('number and address fields');
      o.e = {t: {k: 's'}, fn: true, collect: function (r, c, out) {
        var b = out.length; in_.collect(r, c, out);
        for (var i = b; i < out.length; i++) {
          var v = out[i];
          out[i] = utf8.encode(k === 'u' ? BigInt.asUintN(64, v).toString() : k === 'i' ? BigInt.asIntN(64, v).toString() : k === 'f' ? formatFloat(v.f) : formatAddr(v.a));
        }
      }};
      break;
  }
  o.field = false;
};

P.parseSlice = function (o, t) {
  if (!o.e && o.lit.k === 'word' && looksLikeField(o.lit.s)) throw this.errNotField(o);
  if (!o.e) throw this.errTok(t, 'Only a field or a function\'s value can be sliced, not ' + this.text(o) + '.');
  var k = o.e.t.k;
  if (k !== 's' && k !== 'x') {
    if (o.e.f && !o.e.pseudo) o.e = fieldEntity(o.e.f, true);
  }
  k = o.e.t.k;
  if (k !== 's' && k !== 'x') throw new FilterError(this.text(o) + ' (type=' + typeName(o.e.t) + ') has no bytes in mcdissect, so it cannot be sliced.', o.pos, o.end);
  var s = t.s.replace(/ /g, '');
  var bad = this.errTok(t, quote(t.s) + ' is not a valid slice: write [i:j] (j bytes from i), [i-j] (i to j), [i], [:j] or [i:].');
  if (s.indexOf(',') >= 0) throw this.errTok(t, 'Concatenated slices (' + t.s + ') are not supported by mcdissect.');
  function num(x) { return x !== '' && x.length <= 10 && /^[+-]?\d+$/.test(x) ? parseInt(x, 10) : null; }
  var mode, i, j, colon = s.indexOf(':');
  if (colon >= 0) {
    var a = s.slice(0, colon), b = s.slice(colon + 1);
    if (a === '' && b === '') throw bad;
    if (b === '') { mode = 'toend'; i = num(a); if (i === null) throw bad; }
    else {
      mode = 'len'; i = num(a === '' ? '0' : a); j = num(b);
      if (i === null || j === null || j <= 0) throw bad;
    }
  } else {
    var dash = s.slice(Math.min(1, s.length)).indexOf('-');
    if (dash >= 0) {
      dash++;
      mode = 'end'; i = num(s.slice(0, dash)); j = num(s.slice(dash + 1));
      if (i === null || j === null || (i < 0) !== (j < 0) || i > j) throw bad;
    } else { mode = 'len'; j = 1; i = num(s); if (i === null) throw bad; }
  }
  var inner = o.e;
  o.e = {t: {k: 'x'}, slice: true, collect: function (r, c, out) {
    var base = out.length; inner.collect(r, c, out);
    var w = base;
    for (var q = base; q < out.length; q++) {
      var v = out[q], n = v.length, st = i < 0 ? i + n : i, end;
      if (st < 0 || st >= n) continue;
      if (mode === 'len') end = st + j; else if (mode === 'end') { end = j < 0 ? j + n : j; end++; } else end = n;
      if (end > n || end <= st) continue;
      out[w++] = v.subarray(st, end);
    }
    out.length = w;
  }};
  o.end = t.end;
  o.field = false;
};

P.exists = function (o) {
  if (!o.e) throw this.errNotField(o);
  var e = o.e;
  if (e.band) return function (r, c) { var out = []; e.collect(r, c, out); return out.some(function (v) { return v !== 0n; }); };
  if (e.fn) throw new FilterError(this.text(o) + ' is not a test by itself: compare its value, as in len(classic.username) > 3.', o.pos, o.end);
  return function (r, c) { var out = []; e.collect(r, c, out); return out.length > 0; };
};
P.errNotField = function (o) {
  if (o.lit.k === 'word' && looksLikeField(o.lit.s)) {
    var msg = quote(o.lit.s) + ' is not a valid protocol or protocol field.', s = suggest(o.lit.s);
    if (s) msg += ' Did you mean ' + quote(s) + '?';
    return new FilterError(msg, o.pos, o.end);
  }
  return new FilterError(this.text(o) + ' is a value, not a field: compare a field with it, as in tcp.port == 25565.', o.pos, o.end);
};
P.errLiteralSide = function (o, op) {
  if (o.lit.k === 'word' && looksLikeField(o.lit.s)) return this.errNotField(o);
  return new FilterError('Left side of ' + quote(op.s) + ' expression must be a field or function, not ' + this.text(o) + '.', o.pos, o.end);
};
function misspelt(tok) {
  if (tok.k !== 'word' || !looksLikeField(tok.s)) return false;
  var d = tok.s.indexOf('.');
  return d > 0 && resolve(tok.s.slice(0, d)) !== null;
}

function test(k, rel, re, a, b) {
  switch (rel) {
    case 'eq': return compare(k, a, b) === 0;
    case 'ne': return compare(k, a, b) !== 0;
    case 'lt': return compare(k, a, b) < 0;
    case 'le': return compare(k, a, b) <= 0;
    case 'gt': return compare(k, a, b) > 0;
    case 'ge': return compare(k, a, b) >= 0;
    case 'contains': return indexOfBytes(a, b) >= 0;
    case 'matches': re.lastIndex = 0; return re.test(text.decode(a));
  }
  return false;
}
P.compare = function (lhs, op, rel, all, rhs) {
  if (!lhs.e) throw this.errLiteralSide(lhs, op);
  var t = lhs.e.t, k = t.k;
  this.checkRel(lhs, op, rel);
  var consts = null, re = null, other = null;
  if (rhs.e) {
    var rt = rhs.e.t, rk = rt.k;
    if (rel === 'matches') throw new FilterError('The right side of matches must be a quoted regular expression.', rhs.pos, rhs.end);
    if (rk !== k || rt.fam !== t.fam) throw new FilterError(this.text(lhs) + ' (type=' + typeName(t) + ') and ' + this.text(rhs) + ' (type=' + typeName(rt) + ') cannot be compared.', lhs.pos, rhs.end);
    other = rhs.e;
  } else if (rel === 'matches') {
    if (rhs.lit.k !== 'str') throw new FilterError('The right side of matches must be a quoted regular expression, not ' + this.text(rhs) + '.', rhs.pos, rhs.end);
    var src = rhs.lit.s, flags = 'i';
    if (src.slice(0, 5) === '(?-i)') { src = src.slice(5); flags = ''; }
    try { re = new RegExp(src, flags); } catch (err) {
      throw new FilterError('Invalid regular expression: ' + String(err.message).replace(/^Invalid regular expression: /, '') + '.', rhs.pos, rhs.end);
    }
    consts = [null];
  } else consts = this.literal(lhs, rhs, rel);
  var e = lhs.e;
  return function (r, c) {
    var ls = [], rs = consts;
    e.collect(r, c, ls);
    if (other) { rs = []; other.collect(r, c, rs); }
    if (!ls.length || !rs.length) return false;
    for (var i = 0; i < ls.length; i++) for (var j = 0; j < rs.length; j++) {
      if (test(k, rel, re, ls[i], rs[j]) !== all) return !all;
    }
    return all;
  };
};
P.checkRel = function (lhs, op, rel) {
  var t = lhs.e.t;
  if (t.k === 'n') throw new FilterError(this.text(lhs) + ' has no value in mcdissect: it can only be tested for presence, as in ' + this.text(lhs) + ' alone.', lhs.pos, lhs.end);
  if ((rel === 'contains' || rel === 'matches') && t.k !== 's' && t.k !== 'x') {
    throw new FilterError(this.text(lhs) + ' (type=' + typeName(t) + ') cannot participate in ' + op.s + ' comparison.', lhs.pos, lhs.end);
  }
};
// literal converts a literal to values of lhs's type (several for a value
// name several numbers share).
P.literal = function (lhs, o, rel) {
  var t = lhs.e.t, self = this, tok = o.lit;
  if (o.e) throw new FilterError('A set or mask holds values, not fields: ' + this.text(o) + '.', o.pos, o.end);
  function fail(msg) {
    if (tok.k === 'word' && resolve(tok.s)) throw new FilterError('A set or mask holds values, not fields: ' + self.text(o) + '.', o.pos, o.end);
    if (misspelt(tok)) throw self.errNotField(o);
    throw new FilterError(msg, o.pos, o.end);
  }
  switch (t.k) {
    case 'u': case 'i':
      if (tok.k === 'char') return [BigInt(tok.b[0])];
      if (tok.k === 'word' && tok.s.indexOf('_') < 0) {
        var n = parseInteger(tok.s, t.k === 'i');
        if (n !== null) return [t.k === 'i' ? BigInt.asIntN(64, n) : n];
      }
      if (t.names) {
        var keys = [];
        for (var key in t.names) if (t.names[key] === tok.s) keys.push(BigInt(key));
        if (keys.length) {
          if (rel !== 'eq' && rel !== 'ne') throw new FilterError('A value name (' + this.text(o) + ') can only be compared with ==, !=, === or !==, or used in a set.', o.pos, o.end);
          keys.sort(function (a, b) { return cmpNum(BigInt.asUintN(64, a), BigInt.asUintN(64, b)); });
          return keys;
        }
        var names = [];
        for (key in t.names) if (names.indexOf(quote(t.names[key])) < 0) names.push(quote(t.names[key]));
        names.sort();
        if (names.length > 8) names = names.slice(0, 8).concat(['\u2026']);
        return fail(this.text(o) + ' is neither a number nor one of the value names of ' + this.text(lhs) + ' (' + names.join(', ') + ').');
      }
      if (tok.k === 'str') return fail(this.text(o) + ' is a string; ' + this.text(lhs) + ' is a ' + typeName(t) + ': compare it with a number, unquoted.');
      if (t.k === 'u' && tok.s[0] === '-') return fail(this.text(o) + ' is negative; ' + this.text(lhs) + ' is unsigned.');
      return fail(quote(tok.s) + ' is not a valid number.');
    case 'b':
      if (tok.k === 'word') {
        var low = tok.s.toLowerCase();
        if (low === 'true') return [1n];
        if (low === 'false') return [0n];
        n = parseInteger(tok.s, true);
        if (n !== null) return [n !== 0n ? 1n : 0n];
      }
      return fail(this.text(o) + ' is not a valid boolean: write True, False, 1 or 0.');
    case 'f':
      if (tok.k === 'word' && tok.s.indexOf('_') < 0) {
        var f = parseFloatLit(tok.s);
        if (f !== null) return [{f: f, t: tok.s}];
      }
      return fail(quote(tok.s) + ' is not a valid number.');
    case 's':
      if (misspelt(tok)) throw this.errNotField(o);
      return [tok.b || utf8.encode(tok.s)];
    case 'x':
      if (tok.k !== 'word') return [tok.b];
      var bs = parseBytes(tok.s);
      if (bs) return [bs];
      return fail(quote(tok.s) + ' is not a valid byte string: write fe:fd:09, fe.fd, fefd, 0xfe or "text".');
    case 'a':
      if (tok.k === 'word') { var a = parseAddr(tok.s, t.fam); if (a) return [a]; }
      var what = t.fam === 6 ? 'IPv6 address' : 'IPv4 address';
      if (tok.k === 'str') return fail(this.text(o) + ' is a string; ' + this.text(lhs) + ' is an ' + what + ': write it without quotes.');
      return fail(quote(tok.s) + ' is not a valid ' + what + ' or CIDR prefix.');
    case 't':
      if (tok.k !== 'word' && tok.k !== 'str') return fail(this.text(o) + ' is not a valid absolute time. ' + TIME_EXAMPLE);
      var r = parseAbsTime(tok.s);
      if (r.err) throw this.timeError(o, r);
      return [r.ns];
  }
  throw new FilterError(this.text(lhs) + ' has no value to compare.', lhs.pos, lhs.end);
};
P.timeError = function (o, e) {
  var src = this.expr.slice(o.pos, o.end), off = -1;
  if (o.lit.k === 'word') off = o.pos;
  else if (src.slice(0, 2) === 'r"') off = o.pos + 2;
  else if (src.indexOf('\\') < 0) off = o.pos + 1;
  if (!e.to || off < 0) return new FilterError(e.err, o.pos, o.end);
  return new FilterError(e.err, off + e.from, off + e.to);
};
function parseBytes(s) {
  if (/^0[xX]/.test(s)) {
    if (!/^0[xX][0-9a-fA-F]{1,2}$/.test(s.replace(/^0[xX]0*(?=[0-9a-fA-F])/, '0x'))) return null;
    var v = parseInt(s.slice(2), 16);
    return v <= 255 ? new Uint8Array([v]) : null;
  }
  var parts = s.split(/[:.-]/).filter(function (p) { return p !== ''; });
  if (parts.length === 0 || parts.length === 1 && s.length !== parts[0].length) return null;
  if (parts.length === 1) {
    if (s.length % 2 || !/^[0-9a-fA-F]+$/.test(s)) return null;
    var b = new Uint8Array(s.length / 2);
    for (var i = 0; i < b.length; i++) b[i] = parseInt(s.substr(2 * i, 2), 16);
    return b;
  }
  if (parts.join(':').length !== s.length) return null;
  b = new Uint8Array(parts.length);
  for (i = 0; i < parts.length; i++) {
    if (parts[i].length > 2 || !/^[0-9a-fA-F]+$/.test(parts[i])) return null;
    b[i] = parseInt(parts[i], 16);
  }
  return b;
}
P.parseSet = function (lhs, all) {
  var open = this.peek();
  if (!this.accept(['{'])) throw this.errTok(open, 'A set is written in braces: tcp.port in {25565, 25575}.');
  if (!lhs.e) throw this.errLiteralSide(lhs, {s: 'in'});
  this.checkRel(lhs, {s: 'in'}, 'eq');
  var k = lhs.e.t.k, elems = [];
  for (;;) {
    var t = this.peek();
    if (is(t, ['}']) && elems.length) { this.next(); break; }
    if (t.k === 'eof') throw this.errTok(open, 'The closing "}" of this set is missing.');
    var lo = this.setValue(lhs);
    if (this.accept(['..'])) {
      var hi = this.setValue(lhs);
      if (lo.length !== 1 || hi.length !== 1) throw this.errTok(t, 'A range is between two values, not value names that stand for several.');
      elems.push({lo: lo[0], hi: hi[0], rng: true});
    } else lo.forEach(function (v) { elems.push({lo: v}); });
    this.accept([',']);
  }
  var e = lhs.e;
  function member(v) {
    for (var i = 0; i < elems.length; i++) {
      var el = elems[i];
      if (el.rng ? compare(k, v, el.lo) >= 0 && compare(k, v, el.hi) <= 0 : compare(k, v, el.lo) === 0) return true;
    }
    return false;
  }
  return function (r, c) {
    var vs = [];
    e.collect(r, c, vs);
    var ok = vs.length > 0 && all;
    for (var i = 0; i < vs.length; i++) if (member(vs[i]) !== all) return !all;
    return ok;
  };
};
P.setValue = function (lhs) {
  var t = this.next();
  if (t.k !== 'word' && t.k !== 'str' && t.k !== 'char' || t.k === 'word' && KEYWORDS.indexOf(t.s) >= 0) throw this.unexpected(t);
  return this.literal(lhs, {lit: t, pos: t.pos, end: t.end}, 'eq');
};

// HOOKS are what the filter needs of the page: a record's bytes, the name
// of a field of its tree by its index in the page's field table, and the
// name of an expert item by its index in the page's table of them.
var HOOKS = {bytes: null, fieldName: null, expertName: null};

// compile returns {match(rec) -> bool} or throws a FilterError.
function compile(expr) {
  var p = new Parser(expr, lex(expr)), n = p.parseExpr(), t = p.peek();
  if (t.k !== 'eof') throw p.unexpected(t);
  return {
    missing: false,
    match: function (r) { var c = {missing: false}; var ok = n(r, c); if (c.missing) this.missing = true; return ok; }
  };
}

return {compile: compile, setFields: setFields, hooks: HOOKS, FilterError: FilterError, parseAbsTime: parseAbsTime};
})();
