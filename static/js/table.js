// A table waiting for players: reload when the poll says it changed (someone joined, or the game
// started), and select or copy the invitation link so it can be sent to a friend. Kept out of the page's
// attributes: the Content-Security-Policy refuses inline handlers and hx-on.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  // The invitation link's Copy button: the clipboard when the browser allows it, else selected.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    var note = document.querySelector("[data-copied-note]");
    function done() { if (note) note.hidden = false; }
    field.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
    } else {
      document.execCommand("copy");
      done();
    }
  });
  document.addEventListener("game-changed", function (event) {
    if (event.target.closest("[data-reload-on-change]")) window.location.reload();
  });
  document.addEventListener("click", function (event) {
    if (event.target.matches("[data-select-on-click]")) event.target.select();
  });
})();
