// report.html's only script: sorts the model table and opens a matrix cell's answer panel (keyboard too).
/** Plain ES2017 so it runs in any browser; no data comes from the page's text, only from attributes. */
export const SCRIPT = `
(function () {
  'use strict';
  var live = document.getElementById('live');
  function announce(text) { if (live) { live.textContent = text; } }

  function sortValue(row, index) {
    var cell = row.cells[index];
    var raw = cell ? cell.getAttribute('data-sort-value') : null;
    if (raw === null || raw === '') { return null; }
    var n = Number(raw);
    return isNaN(n) ? raw : n;
  }

  function sortTable(table, button) {
    var th = button.closest('th');
    var index = Number(button.getAttribute('data-sort'));
    var dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
    var headers = table.querySelectorAll('thead th');
    for (var i = 0; i < headers.length; i++) { headers[i].removeAttribute('aria-sort'); }
    th.setAttribute('aria-sort', dir);
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = sortValue(a, index), y = sortValue(b, index);
      if (x === null && y === null) { return 0; }
      if (x === null) { return 1; }
      if (y === null) { return -1; }
      var c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return dir === 'ascending' ? c : -c;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    announce('Sorted by ' + (button.getAttribute('aria-label') || button.textContent) + ', ' + dir);
  }

  Array.prototype.forEach.call(document.querySelectorAll('table[data-sortable]'), function (table) {
    table.addEventListener('click', function (event) {
      var button = event.target.closest('button.sort');
      if (!button) { return; }
      sortTable(table, button);
    });
  });

  // The matrix toolbar: failures only hides rows whose every cell passed; expand all opens every panel.
  var failuresOnly = document.getElementById('failures-only');
  if (failuresOnly) {
    failuresOnly.addEventListener('change', function () {
      var shown = 0;
      Array.prototype.forEach.call(document.querySelectorAll('#matrix tbody[data-failing]'), function (body) {
        body.hidden = failuresOnly.checked && body.getAttribute('data-failing') !== 'true';
        if (!body.hidden) { shown++; }
      });
      announce(shown + ' cases shown');
    });
  }
  function setAllPanels(open) {
    Array.prototype.forEach.call(document.querySelectorAll('section.detail'), function (panel) { panel.hidden = !open; });
    announce(open ? 'All answers shown' : 'All answers hidden');
  }
  var expandAll = document.getElementById('expand-all');
  var collapseAll = document.getElementById('collapse-all');
  if (expandAll) { expandAll.addEventListener('click', function () { setAllPanels(true); }); }
  if (collapseAll) { collapseAll.addEventListener('click', function () { setAllPanels(false); }); }

  var opener = null;
  function closePanels(except) {
    Array.prototype.forEach.call(document.querySelectorAll('section.detail'), function (panel) {
      if (panel !== except) { panel.hidden = true; }
    });
    Array.prototype.forEach.call(document.querySelectorAll('button.cell[aria-expanded="true"]'), function (b) {
      b.setAttribute('aria-expanded', 'false');
    });
  }

  function openPanel(button) {
    var panel = document.getElementById(button.getAttribute('aria-controls'));
    if (!panel) { return; }
    closePanels(panel);
    panel.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    opener = button;
    var model = button.getAttribute('data-model');
    Array.prototype.forEach.call(panel.querySelectorAll('.answer-col'), function (col) {
      col.classList.toggle('focus', col.getAttribute('data-model') === model);
    });
    var turn = button.getAttribute('data-turn');
    var target = panel.querySelector('h3');
    Array.prototype.forEach.call(panel.querySelectorAll('.turn-block'), function (block) {
      if (turn && block.getAttribute('data-turn') === turn && block.querySelector('h4')) { target = block.querySelector('h4'); }
    });
    target.setAttribute('tabindex', '-1');
    target.focus();
    var calm = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    target.scrollIntoView({ block: 'start', behavior: calm ? 'auto' : 'smooth' });
  }

  function closePanel(panel) {
    panel.hidden = true;
    closePanels(null);
    if (opener) { opener.focus(); }
  }

  document.addEventListener('click', function (event) {
    var cell = event.target.closest('button.cell');
    if (cell) { openPanel(cell); return; }
    var close = event.target.closest('button[data-close]');
    if (close) { closePanel(document.getElementById(close.getAttribute('data-close'))); }
  });
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'Escape') { return; }
    var open = document.querySelector('section.detail:not([hidden])');
    if (open) { closePanel(open); }
  });
})();
`;
