// The replay page: the step links work on their own (and htmx swaps them in); this only adds
// the arrow keys. It clicks the links, so htmx handles the request and the history entry.
(function () {
  "use strict";
  var steps = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };

  document.addEventListener("keydown", function (event) {
    var step = steps[event.key];
    if (!step || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    var link = document.querySelector('#replay [data-step="' + step + '"]');
    if (!link || link.getAttribute("aria-disabled") === "true") return;
    event.preventDefault();
    link.click();
  });
})();
