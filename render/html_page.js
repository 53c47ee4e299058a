
(function () {
'use strict';
var T0 = performance.now();
// Everything from the capture is data: it reaches the page as JSON and the
// DOM only through textContent, attributes set as strings, and img.src
// (data: URIs the renderer checked, which the CSP alone allows).
var RECS = JSON.parse(document.getElementById('mc-records').textContent);
var META = JSON.parse(document.getElementById('mc-meta').textContent);
var FIELDS = META.fields, EXPERTS = META.experts;
var ROWH = 20, OVERSCAN = 15, HEXMAX = 16384;
var listEl = document.getElementById('list'), rowsEl = document.getElementById('rows');
var treeEl = document.getElementById('tree'), hexEl = document.getElementById('hex');
var explainEl = document.getElementById('explain'), filterEl = document.getElementById('filter');
var countEl = document.getElementById('count');
var view = [], posOf = new Int32Array(RECS.length).fill(-1);
var cur = -1, sel = -1, nodeEls = [], byteEls = [], asciiEls = [], lit = [], depth = [], hexFrom = 0;

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function nodeName(rec, i) {
  var n = rec.n[i], name = FIELDS[n[0]][0];
  return n.length > 7 ? name + '.' + n[7] : name;
}
// nodeValue is node i's value: a text or bytes value that is a view of the
// record's bytes comes as [offset, length] (the page reads it there), text
// as a string, bytes as hex, numbers past 2^53 as strings.
var utf8 = new TextDecoder('utf-8');
function nodeValue(rec, i) {
  var v = rec.n[i][6];
  if (!Array.isArray(v)) return v;
  var b = bytesOf(rec).subarray(v[0], v[0] + v[1]);
  if (FIELDS[rec.n[i][0]][3] === 'string') return utf8.decode(b);
  var h = '';
  for (var k = 0; k < b.length; k++) h += (b[k] < 16 ? '0' : '') + b[k].toString(16);
  return h;
}
function bytesOf(rec) {
  if (!rec._b) {
    var s = atob(rec.x), b = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
    rec._b = b;
  }
  return rec._b;
}
function maxSev(rec) {
  var m = 0;
  if (rec.e) for (var k = 0; k < rec.e.length; k++) {
    var s = EXPERTS[rec.e[k][1]][1], v = s === 'error' ? 3 : s === 'warning' ? 2 : 1;
    if (v > m) m = v;
  }
  return m;
}

// ---- the packet list: only the rows in sight are in the DOM ----
var shown = '', shownAt = null;
function renderRows() {
  var head = document.getElementById('listhead').offsetHeight;
  var top = Math.max(0, listEl.scrollTop - head);
  var first = Math.max(0, Math.floor(top / ROWH) - OVERSCAN);
  var last = Math.min(view.length, Math.ceil((top + listEl.clientHeight) / ROWH) + OVERSCAN);
  // The same rows as before: keep their elements (a click in progress
  // on one must find it again on release).
  var key = first + ' ' + last + ' ' + cur + ' ' + viewID;
  if (key === shown) return;
  // Rows added below those shown (a live page's records): append them only.
  var grew = shownAt && shownAt[0] === first && shownAt[1] < last && shownAt[2] === cur && shownAt[3] === viewID;
  var from = grew ? shownAt[1] : first;
  shown = key;
  shownAt = [first, last, cur, viewID];
  var frag = document.createDocumentFragment();
  for (var p = from; p < last; p++) {
    var idx = view[p], r = RECS[idx], row = el('div', 'row p-' + r.k);
    var sv = maxSev(r);
    if (sv === 3) row.className += ' s-error'; else if (sv === 2) row.className += ' s-warning';
    if (idx === cur) row.className += ' sel';
    row.style.top = (p * ROWH) + 'px';
    row.setAttribute('data-pdu', String(idx));
    row.setAttribute('data-frame', String(r.f));
    row.appendChild(el('span', 'c-no', r.f));
    row.appendChild(el('span', 'c-time', r.t));
    var src = el('span', 'c-src', r.s), dst = el('span', 'c-dst', r.d);
    src.title = r.s; dst.title = r.d; // an IPv6 address and port may not fit
    row.appendChild(src);
    row.appendChild(el('span', 'c-arrow', '\u2192'));
    row.appendChild(dst);
    row.appendChild(el('span', 'c-proto', r.p));
    row.appendChild(el('span', 'c-info', r.i));
    frag.appendChild(row);
  }
  if (grew) rowsEl.appendChild(frag); else rowsEl.replaceChildren(frag);
}
var viewID = 0;
function setView(v) {
  view = v;
  viewID++;
  posOf.fill(-1);
  for (var p = 0; p < v.length; p++) posOf[v[p]] = p;
  rowsEl.style.height = (v.length * ROWH) + 'px';
  countText();
  renderRows();
}
function countText() {
  countEl.textContent = view.length === RECS.length ? RECS.length + ' records' : view.length + ' of ' + RECS.length + ' records';
}
function scrollToPos(p) {
  var head = document.getElementById('listhead').offsetHeight;
  var y = p * ROWH, top = listEl.scrollTop, h = listEl.clientHeight - head;
  if (y < top) listEl.scrollTop = y;
  else if (y + ROWH > top + h) listEl.scrollTop = y + ROWH - h;
}
listEl.addEventListener('scroll', renderRows);
window.addEventListener('resize', renderRows);
rowsEl.addEventListener('click', function (ev) {
  var row = ev.target.closest('.row');
  if (row) { selectRecord(+row.getAttribute('data-pdu')); listEl.focus({preventScroll: true}); }
});
document.addEventListener('keydown', function (ev) {
  if (ev.target === filterEl) return;
  var p = cur >= 0 ? posOf[cur] : -1, to = -1;
  if (ev.key === 'ArrowDown') to = p < 0 ? 0 : p + 1;
  else if (ev.key === 'ArrowUp') to = p < 0 ? 0 : p - 1;
  else if (ev.key === 'PageDown') to = p + Math.max(1, Math.floor(listEl.clientHeight / ROWH) - 1);
  else if (ev.key === 'PageUp') to = p - Math.max(1, Math.floor(listEl.clientHeight / ROWH) - 1);
  else if (ev.key === 'Home') to = 0;
  else if (ev.key === 'End') to = view.length - 1;
  else return;
  ev.preventDefault();
  to = Math.max(0, Math.min(view.length - 1, to));
  if (view.length) selectRecord(view[to]);
});

function selectRecord(idx) {
  cur = idx;
  var p = posOf[idx];
  if (p >= 0) scrollToPos(p);
  renderRows();
  var rec = RECS[idx];
  renderTree(rec);
  renderHex(rec);
  sel = -1;
  lit = [];
  explainEl.replaceChildren(el('p', 'hint', 'Frame ' + rec.f + ': ' + (rec.m || rec.k) + '. Click a field or a byte: its explanation shows here.'));
  MCFollow.select(idx);
}

// ---- the field tree ----
var LEGACY = {'0': '#000000', '1': '#0000AA', '2': '#00AA00', '3': '#00AAAA', '4': '#AA0000', '5': '#AA00AA', '6': '#FFAA00', '7': '#AAAAAA',
  '8': '#555555', '9': '#5555FF', 'a': '#55FF55', 'b': '#55FFFF', 'c': '#FF5555', 'd': '#FF55FF', 'e': '#FFFF55', 'f': '#FFFFFF'};
var NAMED = {black: '0', dark_blue: '1', dark_green: '2', dark_aqua: '3', dark_red: '4', dark_purple: '5', gold: '6', gray: '7',
  dark_gray: '8', blue: '9', green: 'a', aqua: 'b', red: 'c', light_purple: 'd', yellow: 'e', white: 'f'};
var CLASSIC = ['#000', '#00A', '#0A0', '#0AA', '#A00', '#A0A', '#AA0', '#AAA', '#555', '#55F', '#5F5', '#5FF', '#F55', '#F5F', '#FF5', '#FFF'];
var STYLE = {l: 'b', o: 'i', n: 'u', m: 's', k: 'k', bold: 'b', italic: 'i', underlined: 'u', strikethrough: 's', obfuscated: 'k'};

// A styled run writer: text goes into spans with the current colour and styles.
function Styler(box) { this.box = box; this.reset(); }
Styler.prototype.reset = function () { this.color = ''; this.st = {}; };
Styler.prototype.text = function (t) {
  if (!t) return;
  var s = el('span', Object.keys(this.st).join(' '), t);
  if (this.color) s.style.color = this.color;
  this.box.appendChild(s);
};
Styler.prototype.code = function (c) {
  c = c.toLowerCase();
  if (LEGACY[c]) { this.color = LEGACY[c]; this.st = {}; return true; }
  if (c === 'r') { this.reset(); return true; }
  if (STYLE[c]) { this.st[STYLE[c]] = 1; return true; }
  return false;
};
// § codes (Query MOTDs, legacy pings, chat text), §x§R§R§G§G§B§B hex colours.
function legacyInto(box, s) {
  var w = new Styler(box), buf = '';
  for (var i = 0; i < s.length; i++) {
    if (s[i] === '\u00a7' && i + 1 < s.length) {
      var hex = /^\u00a7[xX]((?:\u00a7[0-9a-fA-F]){6})/.exec(s.slice(i, i + 14));
      w.text(buf); buf = '';
      if (hex) { w.color = '#' + hex[1].replace(/\u00a7/g, ''); w.st = {}; i += 13; continue; }
      w.code(s[i + 1]); i++; continue;
    }
    buf += s[i];
  }
  w.text(buf);
}
// The tree's written-out formatting of an SLP description: "[green]test[reset]".
function bracketInto(box, s) {
  var w = new Styler(box), re = /\[(#[0-9a-fA-F]{6}|[a-z_]+)\]/g, last = 0, m;
  while ((m = re.exec(s))) {
    var t = m[1];
    if (t[0] !== '#' && !NAMED[t] && !STYLE[t] && t !== 'reset') continue;
    w.text(s.slice(last, m.index));
    last = re.lastIndex;
    if (t[0] === '#') { w.color = t; } else if (NAMED[t]) { w.color = LEGACY[NAMED[t]]; } else if (t === 'reset') { w.reset(); } else { w.st[STYLE[t]] = 1; }
  }
  w.text(s.slice(last));
}
// Classic & codes in a string field.
function ampInto(box, s) {
  var w = new Styler(box), last = 0, re = /&([0-9a-fA-F])/g, m;
  while ((m = re.exec(s))) {
    w.text(s.slice(last, m.index));
    w.color = CLASSIC[parseInt(m[1], 16)];
    last = re.lastIndex;
  }
  w.text(s.slice(last));
}
// A preview of how the client shows node i's text, or null.
function preview(rec, i, kids) {
  var n = rec.n[i], name = FIELDS[n[0]][0], v = nodeValue(rec, i), box;
  if (/\.styled$/.test(name) && typeof v === 'string') {
    box = el('div', 'mc'); bracketInto(box, v); return box;
  }
  var runs = (kids[i] || []).filter(function (k) { return FIELDS[rec.n[k][0]][0] === 'classic.color_run'; });
  if (runs.length) {
    box = el('div', 'mc');
    runs.forEach(function (k) {
      var m = /&[0-9a-fA-F] [^#:]*(#[0-9A-Fa-f]{3})/.exec(rec.n[k][5]);
      var t = nodeValue(rec, k), s = el('span', '', typeof t === 'string' ? t : '');
      if (m) s.style.color = m[1];
      box.appendChild(s);
    });
    return box;
  }
  if (typeof v !== 'string' || name === 'classic.color_run') return null;
  // A pair whose value child shows the same text: the child previews it.
  // A text whose .styled child previews it, or whose child shows the same text.
  if ((kids[i] || []).some(function (k) { return nodeValue(rec, k) === v || /\.styled$/.test(FIELDS[rec.n[k][0]][0]); })) return null;
  if (v.indexOf('\u00a7') >= 0 && !/\.raw$|^slp\.status\.json$/.test(name)) {
    box = el('div', 'mc'); legacyInto(box, v); return box;
  }
  if (/^classic\./.test(name) && /&[0-9a-fA-F]/.test(v)) {
    box = el('div', 'mc'); ampInto(box, v); return box;
  }
  return null;
}

function renderTree(rec) {
  var n = rec.n, kids = {}, lis = [];
  depth = new Array(n.length);
  nodeEls = new Array(n.length);
  for (var i = 0; i < n.length; i++) {
    var par = n[i][1];
    depth[i] = par < 0 ? 0 : depth[par] + 1;
    if (par >= 0) (kids[par] = kids[par] || []).push(i);
  }
  var experts = {};
  if (rec.e) rec.e.forEach(function (e) { (experts[e[0]] = experts[e[0]] || []).push(e); });
  var imgs = {};
  if (rec.img) rec.img.forEach(function (m) { (imgs[m[0]] = imgs[m[0]] || []).push(m); });
  var root = el('ul'), hdr = el('div', 'hdr', rec.h + partsText(rec));
  for (i = 0; i < n.length; i++) {
    var nd = n[i], li = el('li'), d = el('div', 'node');
    d.setAttribute('data-field', nodeName(rec, i));
    d.setAttribute('data-offset', String(nd[2]));
    d.setAttribute('data-length', String(nd[4] & 1 ? 0 : nd[3]));
    d.setAttribute('data-node', String(i));
    if (nd[4] & 1) d.className += ' gen';
    if (FIELDS[nd[0]][3] === 'framenum' && typeof nd[6] === 'number') {
      d.className += ' link';
      d.title = 'double-click: go to frame ' + nd[6];
    }
    if (nd[4] & 6) d.className += ' bad';
    var tog = el('span', 'tog', kids[i] ? '\u25be' : '');
    d.appendChild(tog);
    d.appendChild(longText('txt', nd[5]));
    if (!(nd[4] & 1)) d.appendChild(el('span', 'rng', ' [off ' + nd[2] + ', len ' + nd[3] + ']'));
    if (nd[4] & 2) d.appendChild(el('span', 'rng', ' [truncated]'));
    if (nd[4] & 4) d.appendChild(el('span', 'rng', ' [malformed]'));
    li.appendChild(d);
    var pv = preview(rec, i, kids);
    if (pv) li.appendChild(pv);
    (imgs[i] || []).forEach(function (m) {
      var f = el('figure'), img = el('img', /favicon/.test(nodeName(rec, m[0])) ? 'fav' : 'map');
      img.alt = m[2];
      img.src = m[1];
      f.appendChild(img);
      f.appendChild(el('figcaption', '', m[2]));
      li.appendChild(f);
    });
    (experts[i] || []).forEach(function (e) {
      var info = EXPERTS[e[1]], sev = info[1];
      var x = el('div', 'expert sev-' + sev, '[Expert Info (' + sev[0].toUpperCase() + sev.slice(1) + '/' + info[0] + '): ' + e[2] + ']');
      x.setAttribute('data-expert-node', String(i));
      li.appendChild(x);
    });
    if (kids[i]) {
      li.appendChild(el('ul'));
      // a long list starts shut, and so do its elements: opening it
      // shows a line per element (2,409 recipes of 50 fields each would
      // lay out 120,000 lines at once)
      if (depth[i] > 0 && (kids[i].length > 40 || depth[nd[1]] > 0 && kids[nd[1]].length > 40)) li.className = 'shut';
      if (li.className === 'shut') tog.textContent = '\u25b8';
    }
    nodeEls[i] = d;
    lis[i] = li;
    if (nd[1] >= 0 && lis[nd[1]]) lis[nd[1]].lastChild.appendChild(li); else root.appendChild(li);
  }
  treeEl.replaceChildren(hdr, root);
}
// Which frames a reassembled PDU's bytes came from, as byte ranges.
function partsText(rec) {
  if (!rec.parts || rec.parts.length < 2) return '';
  var len = bytesOf(rec).length, sum = 0, out = [];
  rec.parts.forEach(function (p) { sum += p[1]; });
  if (sum !== len) return '';
  var off = 0;
  rec.parts.forEach(function (p) { out.push('bytes ' + off + '\u2013' + (off + p[1] - 1) + ' from frame ' + p[0]); off += p[1]; });
  return '\n[' + out.join('; ') + ']';
}
// A link to another frame (Response in frame: N): go there.
treeEl.addEventListener('dblclick', function (ev) {
  var d = ev.target.closest('.node.link');
  if (!d) return;
  var f = RECS[cur].n[+d.getAttribute('data-node')][6];
  for (var i = 0; i < RECS.length; i++) {
    if (RECS[i].f !== f) continue;
    if (posOf[i] < 0) { filterEl.value = ''; applyFilter(); }
    selectRecord(i);
    return;
  }
});
treeEl.addEventListener('click', function (ev) {
  var t = ev.target;
  if (t.classList.contains('tog')) {
    var li = t.closest('li');
    if (li.querySelector('ul')) { li.classList.toggle('shut'); t.textContent = li.classList.contains('shut') ? '\u25b8' : '\u25be'; }
    return;
  }
  var x = t.closest('.expert');
  if (x) { selectNode(+x.getAttribute('data-expert-node')); return; }
  var d = t.closest('.node');
  if (d) selectNode(+d.getAttribute('data-node'));
});

// ---- the bytes ----
// renderHex shows HEXMAX of the record's bytes from offset from (a
// multiple of 16): a record's bytes may be megabytes, and selecting a
// field past the window moves it there (selectNode).
function renderHex(rec, from) {
  from = from || 0;
  var b = bytesOf(rec), n = Math.min(b.length, from + HEXMAX), frag = document.createDocumentFragment();
  var masked = new Uint8Array(b.length);
  if (rec.mask) rec.mask.forEach(function (m) { masked.fill(1, m[0], m[0] + m[1]); });
  var frames = null; // the frame each byte came from
  if (rec.parts && rec.parts.length > 1) {
    var sum = 0; rec.parts.forEach(function (p) { sum += p[1]; });
    if (sum === b.length) { frames = []; rec.parts.forEach(function (p) { for (var k = 0; k < p[1]; k++) frames.push(p[0]); }); }
  }
  byteEls = [];
  asciiEls = [];
  hexFrom = from;
  hexEl.setAttribute('data-from', String(from));
  if (from > 0) frag.appendChild(el('div', 'more', '\u2026 ' + from + ' bytes before not shown: select a field to see its bytes'));
  var wide = b.length > 0xffff;
  for (var o = from; o < n; o += 16) {
    var row = el('div', 'hrow'), asc = [];
    var off = o.toString(16);
    row.appendChild(el('span', 'hoff', ('0000000' + off).slice(wide ? -8 : -4)));
    for (var j = 0; j < 16; j++) {
      var i = o + j;
      if (i >= n) { row.appendChild(el('span', 'hb' + (j === 7 ? ' gap8' : ''), '')); continue; }
      var c = b[i], m = masked[i];
      var h = el('span', 'hb' + (j === 7 ? ' gap8' : '') + (m ? ' masked' : ''), m ? '**' : (c < 16 ? '0' : '') + c.toString(16));
      h.setAttribute('data-byte', String(i));
      if (frames) h.title = 'offset ' + i + ', from frame ' + frames[i];
      var a = el('span', 'ha' + (m ? ' masked' : ''), m ? '*' : c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '.');
      a.setAttribute('data-ascii', String(i));
      byteEls[i] = h; asciiEls[i] = a;
      row.appendChild(h); asc.push(a);
    }
    row.appendChild(el('span', 'hsp', ''));
    asc.forEach(function (a) { row.appendChild(a); });
    frag.appendChild(row);
  }
  if (b.length === 0) frag.appendChild(el('div', 'more', '(no bytes)'));
  if (b.length > n) frag.appendChild(el('div', 'more', '\u2026 ' + (b.length - n) + ' more bytes not shown'));
  if (rec.wl) frag.appendChild(el('div', 'more', 'The capture kept ' + b.length + ' of the ' + rec.wl + ' bytes on the wire.'));
  hexEl.replaceChildren(frag);
  hexEl.scrollTop = 0;
}
hexEl.addEventListener('click', function (ev) {
  var t = ev.target, a = t.getAttribute('data-byte') || t.getAttribute('data-ascii');
  if (a !== null && a !== '') selectByte(+a);
});
// The deepest field that covers byte b (of equally deep ones, the first).
function selectByte(b) {
  var rec = RECS[cur], best = -1, bd = -1;
  for (var i = 0; i < rec.n.length; i++) {
    var n = rec.n[i];
    if (n[4] & 1) continue;
    if (b >= n[2] && b < n[2] + n[3] && depth[i] > bd) { best = i; bd = depth[i]; }
  }
  if (best >= 0) selectNode(best);
}

function selectNode(i) {
  var rec = RECS[cur], n = rec.n[i];
  if (sel >= 0 && nodeEls[sel]) nodeEls[sel].classList.remove('selected');
  lit.forEach(function (k) { byteEls[k].classList.remove('hl'); asciiEls[k].classList.remove('hl'); });
  lit = [];
  sel = i;
  var d = nodeEls[i];
  d.classList.add('selected');
  for (var li = d.parentNode; li && li !== treeEl; li = li.parentNode) {
    if (li.classList && li.classList.contains('shut')) { li.classList.remove('shut'); var t = li.querySelector('.tog'); if (t) t.textContent = '\u25be'; }
  }
  d.scrollIntoView({block: 'nearest'});
  if (!(n[4] & 1)) {
    if (n[3] > 0 && (n[2] < hexFrom || n[2] >= hexFrom + HEXMAX)) {
      renderHex(rec, Math.max(0, n[2] - 256) & ~15);
      lit = [];
    }
    for (var k = n[2]; k < n[2] + n[3] && k < byteEls.length; k++) {
      if (!byteEls[k]) continue;
      byteEls[k].classList.add('hl'); asciiEls[k].classList.add('hl'); lit.push(k);
    }
    if (lit.length) byteEls[lit[0]].scrollIntoView({block: 'nearest'});
  }
  explain(rec, i);
}

function explain(rec, i) {
  var n = rec.n[i], f = FIELDS[n[0]], out = [];
  var h = el('h3', '', f[1]);
  h.appendChild(el('code', '', nodeName(rec, i)));
  out.push(h);
  out.push(el('p', f[2] ? 'desc' : 'desc none', f[2] || 'No explanation is written for this field yet.'));
  if (rec.w && rec.w[i]) out.push(el('p', 'worked', rec.w[i]));
  out.push(longText('line mono', n[5], 'p'));
  if (n[4] & 1) {
    out.push(el('p', 'bytes', 'Generated by mcdissect (not on the wire): worked out from other fields or packets.'));
  } else {
    var b = bytesOf(rec), parts = [];
    for (var k = n[2]; k < n[2] + Math.min(n[3], 32) && k < b.length; k++) parts.push((b[k] < 16 ? '0' : '') + b[k].toString(16));
    var masked = rec.mask && rec.mask.some(function (m) { return n[2] < m[0] + m[1] && m[0] < n[2] + n[3]; });
    out.push(el('p', 'bytes mono', 'Bytes ' + n[2] + '\u2013' + (n[2] + n[3] - 1) + ' (' + n[3] + '): ' +
      (masked ? '(redacted)' : parts.join(' ') + (n[3] > 32 ? ' \u2026' : ''))));
  }
  if (rec.e) rec.e.forEach(function (e) {
    if (e[0] !== i) return;
    var info = EXPERTS[e[1]];
    out.push(el('p', 'expert sev-' + info[1], info[1] + ' ' + info[0] + ': ' + info[2] + '.'));
  });
  explainEl.replaceChildren.apply(explainEl, out);
}

// ---- the filter: the -Y language (html_filter.js), or /text to search the list ----
MCFilter.setFields(META);
MCFilter.hooks.bytes = bytesOf;
MCFilter.hooks.fieldName = function (i) { return FIELDS[i][0]; };
MCFilter.hooks.expertName = function (i) { return EXPERTS[i][0]; };
var errEl = document.getElementById('filtererr');
function rowText(r) { return (r.f + ' ' + r.t + ' ' + r.s + ' \u2192 ' + r.d + ' ' + r.p + ' ' + r.i).toLowerCase(); }
// showError writes the filter's error under the box, with the filter and
// a caret under the bad part, as mcdissect -Y does.
function showError(src, e) {
  var line = src.replace(/[\n\r]/g, ' '), caret = ' '.repeat(e.pos) + '^' + '~'.repeat(Math.max(0, e.end - e.pos - 1));
  errEl.replaceChildren(el('span', 'msg', e.msg), document.createTextNode('\n' + line + '\n'), el('span', 'caret', caret));
  errEl.hidden = false;
  filterEl.setCustomValidity(e.msg);
  filterEl.setAttribute('data-error-pos', String(e.pos));
  filterEl.setAttribute('data-error-end', String(e.end));
}
function clearError() {
  errEl.hidden = true;
  errEl.replaceChildren();
  filterEl.setCustomValidity('');
  filterEl.removeAttribute('data-error-pos');
  filterEl.removeAttribute('data-error-end');
}
// clearSelection empties the tree, the bytes and the explanation.
function clearSelection(hint) {
  cur = -1; sel = -1; lit = [];
  treeEl.replaceChildren(el('p', 'hint', hint));
  hexEl.replaceChildren();
  explainEl.replaceChildren(el('p', 'hint', 'Click a field or a byte: its explanation shows here.'));
  renderRows();
}
var timer = 0, keep = null; // keep: the filter's test of a record, null for every record
function applyFilter() {
  var raw = filterEl.value, src = raw.trim(), v = [], i;
  filterEl.className = '';
  filterEl.title = '';
  clearError();
  if (!src) {
    keep = null;
    for (i = 0; i < RECS.length; i++) v.push(i);
  } else if (src[0] === '/') {
    filterEl.className = 'text';
    filterEl.title = 'searching the list for this text (a filter has no leading /)';
    var needle = src.slice(1).trim().toLowerCase();
    keep = function (r) { return rowText(r).indexOf(needle) >= 0; };
    for (i = 0; i < RECS.length; i++) if (keep(RECS[i])) v.push(i);
  } else {
    var f;
    try { f = MCFilter.compile(raw); } catch (e) {
      if (!(e instanceof MCFilter.FilterError)) throw e;
      filterEl.className = 'bad';
      showError(raw, e);
      return;
    }
    filterEl.className = 'ok';
    filterEl.title = 'display filter, as mcdissect -Y';
    keep = function (r) { return f.match(r); };
    for (i = 0; i < RECS.length; i++) if (keep(RECS[i])) v.push(i);
    if (f.missing) {
      filterEl.title += '; some values are not in the page (redacted, or too long), and no value of them matched';
      filterEl.className += ' partial';
    }
  }
  setView(v);
  if (!v.length) clearSelection(src ? 'No record matches the filter.' : 'No records.');
  else if (cur >= 0 && posOf[cur] >= 0) scrollToPos(posOf[cur]);
  else if (cur >= 0) clearSelection('The record shown before is not among those the filter keeps: select one in the list above.');
}
filterEl.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(applyFilter, 150); });
filterEl.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') { clearTimeout(timer); applyFilter(); } });

// ---- long text: a status JSON with its favicon is shown short, with a button to show it all ----
var LONG = 300;
function longText(cls, s, tag) {
  var box = el(tag || 'span', cls);
  if (s.length <= LONG) { box.textContent = s; return box; }
  var shortText = s.slice(0, LONG), more = el('button', 'more-text', '\u2026 ' + (s.length - LONG) + ' more characters');
  more.type = 'button';
  box.appendChild(document.createTextNode(shortText));
  box.appendChild(more);
  more.addEventListener('click', function (ev) {
    ev.stopPropagation();
    var whole = box.getAttribute('data-whole') === '1';
    box.firstChild.textContent = whole ? shortText : s;
    more.textContent = whole ? '\u2026 ' + (s.length - LONG) + ' more characters' : 'show less';
    box.setAttribute('data-whole', whole ? '0' : '1');
  });
  return box;
}

// ---- start ----
document.title = META.title ? 'mcdissect \u2014 ' + META.title : 'mcdissect';
document.getElementById('title').textContent = META.title || '';
if (META.capped) { var bn = document.getElementById('banner'); bn.textContent = META.capped; bn.hidden = false; }
MCFollow.init({recs: RECS, meta: META, el: el, select: selectRecord, current: function () { return cur; }});
var all = [];
for (var s = 0; s < RECS.length; s++) all.push(s);
setView(all);
if (RECS.length) selectRecord(0);
else treeEl.replaceChildren(el('p', 'hint', 'No records: nothing in this capture was Minecraft traffic (or the filter matched nothing).'));
// ---- records that come after the page loaded (the live page, html_live.js) ----
// addRecords appends records, with the field and expert table entries they
// use, to the list: the filter shown applies to them, the selection stays,
// and the list scrolls to the newest if follow. It returns how many rows
// the filter let into the list.
function addRecords(recs, fields, experts, follow) {
  var i, from = RECS.length, rows = view.length;
  for (i = 0; i < fields.length; i++) FIELDS.push(fields[i]);
  for (i = 0; i < experts.length; i++) EXPERTS.push(experts[i]);
  for (i = 0; i < recs.length; i++) RECS.push(recs[i]);
  var grown = new Int32Array(RECS.length).fill(-1);
  grown.set(posOf);
  posOf = grown;
  for (i = from; i < RECS.length; i++) if (!keep || keep(RECS[i])) { posOf[i] = view.length; view.push(i); }
  rowsEl.style.height = (view.length * ROWH) + 'px';
  countText();
  if (follow) listEl.scrollTop = listEl.scrollHeight;
  renderRows();
  MCFollow.grew();
  return view.length - rows;
}
// For tests and the curious: the records the list shows (indexes into the
// page's records), and milliseconds from navigation to ready; for the live
// page, addRecords.
window.mcdissect = {view: function () { return view.slice(); }, add: addRecords};
document.documentElement.setAttribute('data-ready-ms', String(Math.round(performance.now())));
document.documentElement.setAttribute('data-script-ms', String(Math.round(performance.now() - T0)));
document.documentElement.setAttribute('data-ready', '1');
})();
