// The review page's script: renders answers from answers.json as text nodes (never as markup), filters
// them, and posts each label as it is given (the token from the page's URL, in a header). Plain ES2020,
// no template literals, so it sits in this TypeScript string as written.
export const REVIEW_SCRIPT = `
'use strict';
(function () {
  var token = new URLSearchParams(location.search).get('token') || '';
  var answers = [], labels = {}, view = [], pos = 0, undo = [];
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined && text !== null) e.textContent = String(text); return e; }
  function verdict(a) { return a.not_judged ? 'not judged' : a.pass ? 'pass' : 'fail'; }
  function checkWord(p) { return p === null ? 'not judged' : p ? 'pass' : 'fail'; }
  function cls(w) { return w === 'pass' ? 'pass' : w === 'fail' ? 'fail' : 'nj'; }
  function disagrees(a) { var l = labels[a.item_id]; return !!l && !a.not_judged && (l.human === 'pass') !== a.pass; }

  function fill(select, values) {
    values.forEach(function (v) { var o = el('option', '', v); o.value = v; select.appendChild(o); });
  }
  function uniq(list) { return Array.from(new Set(list)).sort(); }

  function shown(a) {
    var model = $('f-model').value, tag = $('f-tag').value, v = $('f-verdict').value;
    if (model && a.model !== model) return false;
    if (tag && a.tags.indexOf(tag) < 0) return false;
    if (v && verdict(a) !== v) return false;
    if ($('f-disagree').checked && !disagrees(a)) return false;
    if ($('f-todo').checked && labels[a.item_id]) return false;
    return true;
  }
  function apply() {
    var current = view[pos];
    view = [];
    for (var i = 0; i < answers.length; i++) if (shown(answers[i])) view.push(i);
    var keep = view.indexOf(current);
    pos = keep >= 0 ? keep : Math.min(pos, Math.max(view.length - 1, 0));
    renderList();
    show();
  }

  function mark(a) {
    var l = labels[a.item_id];
    return l ? (l.human === 'pass' ? '✓' : '✗') : '·';
  }
  function rowOf(index) {
    var a = answers[index];
    var li = el('li');
    var l = labels[a.item_id];
    li.appendChild(el('span', 'mark ' + (l ? cls(l.human) : ''), mark(a)));
    li.appendChild(el('span', 'id', (a.case_id || (a.thread_id + ' #' + a.turn)) + ' · ' + a.model + (a.repeat > 1 ? ' · r' + a.repeat : '')));
    li.appendChild(el('span', 'mark ' + cls(verdict(a)), verdict(a) === 'pass' ? 'P' : verdict(a) === 'fail' ? 'F' : '?'));
    return li;
  }
  function renderList() {
    var frag = document.createDocumentFragment();
    view.forEach(function (index) { frag.appendChild(rowOf(index)); });
    $('list').replaceChildren(frag);
    $('count').textContent = view.length + ' shown';
    progress();
  }
  function progress() {
    var done = 0, dis = 0;
    answers.forEach(function (a) { if (labels[a.item_id]) done++; if (disagrees(a)) dis++; });
    $('progress').textContent = done + ' / ' + answers.length + ' reviewed · ' + dis + ' disagree with the grader';
  }

  var currentRow = null;
  function show() {
    var items = $('list').children;
    if (currentRow) currentRow.classList.remove('current');
    currentRow = items[pos] || null;
    if (currentRow) currentRow.classList.add('current');
    var has = view.length > 0;
    $('empty').hidden = has;
    $('answer').hidden = !has;
    if (!has) return;
    var a = answers[view[pos]];
    if (items[pos]) items[pos].scrollIntoView({ block: 'nearest' });
    $('meta').textContent = a.item_id + ' · ' + a.model + (a.tags.length ? ' · tags: ' + a.tags.join(', ') : '') + ' · outcome ' + a.outcome + (a.error ? ' (' + a.error + ')' : '') + ' · run verdict ' + verdict(a);
    var thread = $('thread');
    thread.replaceChildren();
    if (a.earlier.length) {
      thread.appendChild(el('h2', '', 'Thread so far'));
      a.earlier.forEach(function (j) {
        var t = answers[j], box = el('div', 'turn');
        box.appendChild(el('strong', '', 'turn ' + t.turn + ': '));
        box.appendChild(el('pre', '', t.prompt));
        box.appendChild(el('pre', '', t.text));
        thread.appendChild(box);
      });
    }
    $('question').textContent = a.prompt;
    $('text').textContent = a.text;
    var body = $('checks').tBodies[0];
    body.replaceChildren();
    if (!a.checks.length) { var none = el('tr'); var td = el('td', '', 'no checks'); td.colSpan = 4; none.appendChild(td); body.appendChild(none); }
    a.checks.forEach(function (c) {
      var tr = el('tr');
      tr.appendChild(el('td', '', c.id));
      tr.appendChild(el('td', cls(checkWord(c.pass)), checkWord(c.pass)));
      tr.appendChild(el('td', '', c.detail + (c.grader ? ' (' + c.grader + ')' : '')));
      tr.appendChild(el('td', '', c.rubric ? 'rubric: ' + c.rubric : c.reference ? 'reference: ' + c.reference : ''));
      body.appendChild(tr);
    });
    var l = labels[a.item_id];
    $('label-state').textContent = l ? 'you said: ' + (l.human === 'pass' ? 'right' : 'wrong') + (l.note ? ' (' + l.note + ')' : '') : 'not yet reviewed';
    $('label-state').className = l ? cls(l.human) : '';
    $('note').value = l ? l.note : '';
  }

  /** One answer's label changed: its row is redrawn (or leaves a filtered list); the list is not rebuilt. */
  function relabelled(index, advance) {
    var n = view.indexOf(index);
    if (n >= 0 && !shown(answers[index])) {
      view.splice(n, 1);
      $('list').children[n].remove();
      if (pos > n) pos--;
      currentRow = null;
    } else if (n >= 0) {
      var row = rowOf(index);
      $('list').children[n].replaceWith(row);
      if (n === pos) currentRow = null;
      if (advance && n === pos && pos < view.length - 1) pos++;
    }
    pos = Math.max(0, Math.min(pos, view.length - 1));
    progress();
    show();
  }
  function post(index, human, note) {
    var itemId = answers[index].item_id, before = labels[itemId] || null;
    if (human === null) delete labels[itemId]; else labels[itemId] = { human: human, note: note };
    $('save-state').textContent = 'saving…';
    return fetch('labels', { method: 'POST', headers: { 'content-type': 'application/json', 'x-review-token': token }, body: JSON.stringify({ item_id: itemId, human: human, note: note }) })
      .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
      .then(function () { $('save-state').textContent = 'saved to labels.csv'; })
      .catch(function (e) {
        if (before) labels[itemId] = before; else delete labels[itemId];
        $('save-state').textContent = 'not saved: ' + e.message;
        relabelled(index, false);
      });
  }
  function label(human) {
    if (!view.length) return;
    var index = view[pos], a = answers[index];
    undo.push({ index: index, before: labels[a.item_id] || null });
    var note = $('note').value;
    $('note').blur();
    var saved = post(index, human, note);
    relabelled(index, true);
    return saved;
  }
  function takeBack() {
    var last = undo.pop();
    if (!last) { $('save-state').textContent = 'nothing to undo'; return; }
    var saved = post(last.index, last.before ? last.before.human : null, last.before ? last.before.note : '');
    if (view.indexOf(last.index) < 0 && shown(answers[last.index])) apply();
    relabelled(last.index, false);
    var n = view.indexOf(last.index);
    if (n >= 0) { pos = n; show(); }
    return saved;
  }
  function move(d) { if (!view.length) return; pos = Math.max(0, Math.min(view.length - 1, pos + d)); show(); }

  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.id === 'note') {
      if (e.key === 'Escape' || e.key === 'Enter') { e.preventDefault(); e.target.blur(); }
      return;
    }
    if (e.target && e.target.tagName === 'SELECT') return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var k = e.key;
    if (k === 'j' || k === 'ArrowDown') move(1);
    else if (k === 'k' || k === 'ArrowUp') move(-1);
    else if (k === 'y') label('pass');
    else if (k === 'n') label('fail');
    else if (k === 'u') takeBack();
    else if (k === 'c') { $('note').focus(); }
    else return;
    e.preventDefault();
  });
  $('list').addEventListener('click', function (e) { var li = e.target.closest('li'); if (li) { pos = Array.prototype.indexOf.call($('list').children, li); show(); } });
  $('b-yes').addEventListener('click', function () { label('pass'); });
  $('b-no').addEventListener('click', function () { label('fail'); });
  $('b-undo').addEventListener('click', function () { takeBack(); });
  ['f-model', 'f-tag', 'f-verdict', 'f-disagree', 'f-todo'].forEach(function (id) { $(id).addEventListener('change', function () { apply(); $(id).blur(); }); });
  // Another tab may have labelled: take the file's labels when this one comes back into view.
  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState !== 'visible') return;
    fetch('labels.json', { headers: { 'x-review-token': token } }).then(function (r) { return r.json(); }).then(function (l) { labels = l; apply(); });
  });

  fetch('answers.json', { headers: { 'x-review-token': token } })
    .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(function (data) {
      answers = data.answers; labels = data.labels;
      fill($('f-model'), uniq(answers.map(function (a) { return a.model; })));
      fill($('f-tag'), uniq([].concat.apply([], answers.map(function (a) { return a.tags; }))));
      apply();
      document.body.dataset.ready = '1';
    })
    .catch(function (e) { $('progress').textContent = 'could not load the answers: ' + e.message; });
})();
`;
