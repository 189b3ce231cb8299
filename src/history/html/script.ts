// history.html's only script: the filters (suite, model, tag, metric) show and hide figures and rows.
/** Plain ES2017; it reads only data attributes and select values, never the page's text. */
export const HISTORY_SCRIPT = `
(function () {
  'use strict';
  var selects = document.querySelectorAll('select[data-filter]');
  function value(name) {
    var el = document.querySelector('select[data-filter="' + name + '"]');
    return el ? el.value : '*';
  }
  function apply() {
    var suite = value('suite'), model = value('model'), tag = document.getElementById('f-tag').value, metric = value('metric');
    var shown = 0;
    Array.prototype.forEach.call(document.querySelectorAll('[data-metric]'), function (el) {
      var elTag = el.getAttribute('data-tag');
      var ok = (suite === '*' || el.getAttribute('data-suite') === suite) &&
        (metric === '*' || el.getAttribute('data-metric') === metric) &&
        (tag === '' ? elTag === '' && (model === '*' || el.getAttribute('data-model') === model)
          : elTag !== '' && (tag === '*' || elTag === tag));
      el.hidden = !ok;
      if (ok && el.tagName === 'FIGURE') { shown++; }
    });
    Array.prototype.forEach.call(document.querySelectorAll('section[data-suite], #runs tr[data-suite]'), function (el) {
      el.hidden = !(suite === '*' || el.getAttribute('data-suite') === suite);
    });
    var live = document.getElementById('live');
    if (live) { live.textContent = shown + ' charts shown'; }
  }
  Array.prototype.forEach.call(selects, function (s) { s.addEventListener('change', apply); });
  apply();
})();
`;
