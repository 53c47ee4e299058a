
// ---- the live page (mcdissect --serve): records as they are dissected ----
(function () {
'use strict';
var META = JSON.parse(document.getElementById('mc-meta').textContent);
var LIVE = META.live;
if (!LIVE) return;
// Everything from the server is data, as in the static page: JSON, given
// to the page's addRecords, and text set with textContent.
var bar = document.getElementById('bar'), banner = document.getElementById('banner');
var treeEl = document.getElementById('tree'), listEl = document.getElementById('list');
var filterEl = document.getElementById('filter');
function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = String(text);
  return e;
}
var btn = el('button'), status = el('span');
btn.id = 'follow';
btn.type = 'button';
status.id = 'live';
status.setAttribute('role', 'status');
bar.appendChild(btn);
bar.appendChild(status);

// follow: the list scrolls to the newest records as they come (Wireshark's
// autoscroll); frozen, it stays still and the records are added below.
var follow = true, shown = 0, below = 0, over = 0, bytes = 0, full = false;
var state = 'connecting', endText = '';
var nf = 0, nx = 0; // the field and expert table entries the page has
var queue = [], qf = [], qx = [], timer = 0;

function setFollow(on) {
  follow = on;
  btn.textContent = on ? 'Freeze' : '\u25b6 Follow';
  btn.title = on ? 'keep the list still: new records are added below it' : 'scroll the list to the newest records as they come';
  btn.setAttribute('aria-pressed', on ? 'false' : 'true');
  document.documentElement.setAttribute('data-follow', on ? '1' : '0');
  if (on) {
    below = 0;
    apply();
    listEl.scrollTop = listEl.scrollHeight;
  }
  showStatus();
}
btn.addEventListener('click', function () { setFollow(!follow); });
// Someone looking at a record freezes the list: a click or a drag in it,
// the wheel up, a key that moves the selection.
listEl.addEventListener('pointerdown', function () { if (follow) setFollow(false); });
listEl.addEventListener('wheel', function (ev) { if (follow && ev.deltaY < 0) setFollow(false); }, {passive: true});
document.addEventListener('keydown', function (ev) {
  if (follow && ev.target !== filterEl && /^(ArrowUp|ArrowDown|PageUp|PageDown|Home)$/.test(ev.key)) setFollow(false);
}, true);

function showStatus() {
  var n = shown + ' record' + (shown === 1 ? '' : 's');
  var t = state === 'ended' ? 'capture ended: ' + n + (endText ? ' (' + endText + ')' : '') :
    state === 'off' ? 'connection lost, reconnecting\u2026' :
    state === 'connecting' ? 'connecting\u2026' :
    follow ? '\u25cf live' : 'frozen' + (below ? ': ' + below + ' new below' : '');
  status.textContent = t;
  status.className = state === 'ended' ? 'ended' : state === 'off' ? 'off' : follow ? '' : 'frozen';
}
function say(text) {
  banner.appendChild(el('p', '', text));
  banner.hidden = false;
}

// Records are handed to the page at most ten times a second: a busy
// capture sends many small events.
function apply() {
  clearTimeout(timer);
  timer = 0;
  if (!queue.length && !qf.length && !qx.length) return;
  var recs = queue, rows = window.mcdissect.add(recs, qf, qx, follow);
  queue = []; qf = []; qx = [];
  shown += recs.length;
  if (!follow) below += rows;
  if (recs.length && treeEl.querySelector('[data-live-wait]')) {
    treeEl.replaceChildren(el('p', 'hint', 'Select a record in the list above: its fields show here, and its bytes beside them.'));
  }
  showStatus();
}
function later() { if (!timer) timer = setTimeout(apply, 100); }

// take appends the table entries of m that the page lacks: m.f holds the
// field table from entry m.fs on (after a reconnection, from 0 again).
function take(list, from, have, into) {
  if (!list) return have;
  for (var i = Math.max(0, have - from); i < list.length; i++) { into.push(list[i]); have++; }
  return have;
}

var es = new EventSource(LIVE.events);
es.onopen = function () { state = 'live'; showStatus(); };
es.onerror = function () { if (state !== 'ended') { state = 'off'; showStatus(); } };
es.onmessage = function (ev) {
  var m = JSON.parse(ev.data);
  nf = take(m.f, m.fs || 0, nf, qf);
  nx = take(m.x, m.xs || 0, nx, qx);
  if (m.dropped) say('The server keeps the newest ' + LIVE.maxRecords + ' records or so: the first ' + m.dropped + ' records of this capture are not on this page.');
  if (m.lost) say(m.lost + ' records were not sent to this page: it did not keep up with the capture (a slow connection, or a busy browser). The list has a gap there.');
  var r = m.r || [];
  for (var i = 0; i < r.length; i++) {
    if (!full && (shown + queue.length >= LIVE.maxRecords || bytes > LIVE.maxBytes)) {
      full = true;
      say('This page holds ' + (shown + queue.length) + ' records, the most one page keeps: newer records are not added to it. Reload the page to see the newest.');
    }
    if (full) { over++; continue; }
    queue.push(r[i]);
  }
  bytes += ev.data.length;
  later();
};
es.addEventListener('end', function (ev) {
  var m = JSON.parse(ev.data);
  es.close();
  apply();
  state = 'ended';
  endText = m.text || '';
  btn.hidden = true; // nothing more comes to follow
  showStatus();
});

if (!document.querySelector('#rows .row')) {
  var wait = el('p', 'hint', 'Waiting for records: they show here as mcdissect dissects them.');
  wait.setAttribute('data-live-wait', '1');
  treeEl.replaceChildren(wait);
}
setFollow(true);
document.documentElement.setAttribute('data-live', '1');
})();
