// compare.html's only script: filters items by text and opens or closes them all; the page reads fine without it.
/** Plain ES2017; it reads only data- attributes the page escaped, never answer text. */
export const COMPARE_SCRIPT = `
(function () {
  'use strict';
  var live = document.getElementById('live');
  var filter = document.getElementById('filter');
  var all = function (selector) { return Array.prototype.slice.call(document.querySelectorAll(selector)); };
  if (filter) {
    filter.addEventListener('input', function () {
      var q = filter.value.trim().toLowerCase();
      var shown = 0;
      all('[data-search]').forEach(function (el) {
        var hit = q === '' || el.getAttribute('data-search').indexOf(q) !== -1;
        el.hidden = !hit;
        if (hit) { shown++; }
      });
      if (live) { live.textContent = shown + ' items shown'; }
    });
  }
  function setOpen(open) { all('details.item').forEach(function (d) { if (!d.hidden) { d.open = open; } }); }
  var expand = document.getElementById('expand-all');
  var collapse = document.getElementById('collapse-all');
  if (expand) { expand.addEventListener('click', function () { setOpen(true); }); }
  if (collapse) { collapse.addEventListener('click', function () { setOpen(false); }); }
})();
`;
