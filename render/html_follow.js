
// The conversation of the selected record, as -z follow,mc prints it, and
// a diagram of it for a learner: the client's and the server's lifelines,
// an arrow a message with its time, what each request asked and how it
// ended (answered and how fast, unanswered, lost with bytes the capture
// missed). The page's script calls MCFollow.init once and
// MCFollow.select on every selection; everything from the capture
// reaches the DOM through textContent only.
var MCFollow = (function () {
'use strict';
var api, RECS, tabBytes, tabConv, convEl, hexEl, shownFor = -1, reqOf = {}, respOf = {};
var MAXROWS = 300;

// OUTCOME_MARKS: what an arrow says of a request that did not end answered
// (mc.outcome's words).
var OUTCOME_MARKS = {
  unanswered: '\u2717 no response', lost: '\u2717 lost', closed: '\u2717 closed by the server',
  reset: '\u2717 reset', refused: '\u2717 refused', ended: '? the capture ended first',
  early: '! answered before it was asked'
};

function el(tag, cls, text) { return api.el(tag, cls, text); }

// The records of r's conversation: its TCP stream, or its two UDP ends.
function members(idx) {
  var r = RECS[idx], out = [];
  for (var i = 0; i < RECS.length; i++) {
    var q = RECS[i];
    if (r.st >= 0 ? q.st === r.st : q.st < 0 && ((q.s === r.s && q.d === r.d) || (q.s === r.d && q.d === r.s))) out.push(i);
  }
  return out;
}
// The line -z follow,mc prints for a record.
function lineText(r) { return r.p + ' ' + r.i + (r.tx ? ': ' + r.tx : ''); }
function ms(s) { return s < 1 ? (s * 1000).toFixed(1) + ' ms' : s.toFixed(3) + ' s'; }

function show(which) {
  var conv = which === 'conv';
  tabConv.classList.toggle('on', conv);
  tabBytes.classList.toggle('on', !conv);
  tabConv.setAttribute('aria-selected', conv ? 'true' : 'false');
  tabBytes.setAttribute('aria-selected', conv ? 'false' : 'true');
  convEl.hidden = !conv;
  hexEl.hidden = conv;
  if (conv) render(api.current());
}

function render(idx) {
  if (idx < 0 || convEl.hidden) return;
  if (shownFor === idx) return;
  shownFor = idx;
  var m = members(idx), r = RECS[idx];
  var first = RECS[m[0]], client = first.dir === 's2c' ? first.d : first.s, server = client === first.s ? first.d : first.s;
  var head = el('div', 'conv-head');
  head.appendChild(el('div', 'conv-title', r.st >= 0 ? 'TCP stream ' + r.st + ' (-z follow,mc,' + r.st + ')' : 'UDP ' + client + ' \u21c4 ' + server + ' (-z follow,mc,' + client + ',' + server + ')'));
  head.appendChild(el('div', 'conv-node', 'Node 0: ' + client + ' (client)'));
  head.appendChild(el('div', 'conv-node', 'Node 1: ' + server + ' (server)'));
  head.appendChild(el('div', 'conv-count', m.length + ' messages'));
  // A window of the conversation around the selected record.
  var at = m.indexOf(idx), from = Math.max(0, at - MAXROWS / 2), to = Math.min(m.length, from + MAXROWS);
  from = Math.max(0, to - MAXROWS);
  var win = m.slice(from, to);
  var parts = [head];
  if (from > 0) parts.push(el('div', 'conv-more', '\u2026 ' + from + ' earlier messages not shown'));
  parts.push(diagram(win, client, idx));
  var lines = el('div', 'conv-lines');
  win.forEach(function (k) {
    var q = RECS[k], line = el('div', 'conv-line ' + (q.s === client ? 'c2s' : 's2c') + (k === idx ? ' cur' : ''));
    line.setAttribute('data-pdu', String(k));
    line.appendChild(el('span', 'cl-no', q.f));
    line.appendChild(el('span', 'cl-time', q.t));
    line.appendChild(el('span', 'cl-dir', q.s === client ? 'C \u2192 S' : 'C \u2190 S'));
    line.appendChild(el('span', 'cl-text', lineText(q)));
    lines.appendChild(line);
  });
  parts.push(lines);
  if (to < m.length) parts.push(el('div', 'conv-more', '\u2026 ' + (m.length - to) + ' later messages not shown'));
  convEl.replaceChildren.apply(convEl, parts);
  var cur = convEl.querySelector('.conv-line.cur');
  if (cur) cur.scrollIntoView({block: 'nearest'});
}

// diagram draws the window's messages as arrows between two lifelines:
// boxes placed by the page's own script (no markup, no inline style).
var STEP = 38, LEFT = 22, RIGHT = 94; // px a message; lifelines at % of the width
function diagram(win, client, idx) {
  var d = el('div', 'conv-diagram');
  d.setAttribute('role', 'img');
  d.setAttribute('aria-label', 'messages between the client and the server, in time order, top to bottom');
  d.style.height = (28 + win.length * STEP) + 'px';
  [['client', LEFT], ['server', RIGHT]].forEach(function (w) {
    var who = el('div', 'who', w[0]), life = el('div', 'life');
    who.style.left = w[1] + '%';
    life.style.left = w[1] + '%';
    d.appendChild(who);
    d.appendChild(life);
  });
  win.forEach(function (k, n) {
    var q = RECS[k], c2s = q.s === client, ex = reqOf[k], resp = respOf[k];
    var cls = 'arrow ' + (c2s ? 'c2s' : 's2c'), label = q.m || q.k, mark = '';
    if (q.kd === 'gap') { cls += ' lost'; label = '\u2717 ' + q.i; }
    if (ex && ex[3] === 'no request') {
      cls += ' no-request';
      label += ' \u2014 its request was not captured';
    } else if (ex) {
      cls += ' ' + ex[3].replace(/ /g, '-');
      if (ex[3] === 'answered') label += ' \u2014 ' + ex[2] + ' answered in ' + ms(ex[4]);
      else if (ex[4] !== null) label += ' \u2014 ' + ex[2] + ': ' + ex[3] + ', ' + ms(ex[4]);
      else label += ' \u2014 ' + ex[2] + ': ' + ex[3];
      mark = OUTCOME_MARKS[ex[3]] || '';
    }
    if (resp && resp[0] !== k) label += ' \u21a9 frame ' + RECS[resp[0]].f;
    if (k === idx) cls += ' cur';
    var a = el('div', cls);
    a.setAttribute('data-pdu', String(k));
    a.style.top = (28 + n * STEP) + 'px';
    var t = el('span', 'time', q.t), span = el('div', 'span'), shaft = el('div', 'shaft'), head = el('div', 'head'), lab = el('div', 'label', q.f + ': ' + label);
    lab.title = q.f + ': ' + label;
    span.style.left = LEFT + '%';
    span.style.width = (RIGHT - LEFT) + '%';
    span.appendChild(lab);
    span.appendChild(shaft);
    span.appendChild(head);
    if (mark) span.appendChild(el('div', 'mark', mark));
    a.appendChild(t);
    a.appendChild(span);
    d.appendChild(a);
  });
  return d;
}

return {
  // init adds the tabs and the conversation view beside the bytes.
  init: function (a) {
    api = a; RECS = a.recs;
    (a.meta.ex || []).forEach(function (x) {
      if (x[0] >= 0) reqOf[x[0]] = x;
      if (x[1] >= 0) respOf[x[1]] = x;
    });
    hexEl = document.getElementById('hex');
    var side = document.getElementById('side'), tabs = el('div', '');
    tabs.id = 'sidetabs';
    tabs.setAttribute('role', 'tablist');
    tabBytes = el('button', 'on', 'Bytes');
    tabConv = el('button', '', 'Conversation');
    tabBytes.id = 'tab-bytes'; tabConv.id = 'tab-conv';
    [tabBytes, tabConv].forEach(function (b) { b.type = 'button'; b.setAttribute('role', 'tab'); tabs.appendChild(b); });
    tabBytes.setAttribute('aria-selected', 'true');
    tabConv.title = 'the selected record\u2019s conversation, as -z follow,mc, with a diagram of its requests and responses';
    convEl = el('div', '');
    convEl.id = 'conv';
    convEl.hidden = true;
    side.insertBefore(tabs, hexEl);
    side.appendChild(convEl);
    tabBytes.addEventListener('click', function () { show('bytes'); });
    tabConv.addEventListener('click', function () { show('conv'); });
    convEl.addEventListener('click', function (ev) {
      var t = ev.target.closest('[data-pdu]');
      if (t) a.select(+t.getAttribute('data-pdu'));
    });
  },
  select: function (idx) { render(idx); },
  // grew draws the view again when records came after the page loaded
  // (the live page): its conversation may have new messages. The live
  // page has no exchanges in its metadata: its arrows show no outcome.
  grew: function () { shownFor = -1; render(api.current()); }
};
})();
