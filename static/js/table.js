// A table waiting for players: reload when the poll says it changed (someone joined, or the game
// started), and select the invitation link on a click so it can be copied. Kept out of the page's
// attributes: the Content-Security-Policy refuses inline handlers and hx-on.
(function () {
  "use strict";
  document.addEventListener("game-changed", function (event) {
    if (event.target.closest("[data-reload-on-change]")) window.location.reload();
  });
  document.addEventListener("click", function (event) {
    if (event.target.matches("[data-select-on-click]")) event.target.select();
  });
})();
