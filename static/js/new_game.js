// New game: only the seats the chosen table has are shown (without scripts every seat shows, and
// the form ignores seats beyond the table size).
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  function showSeats() {
    var chosen = document.querySelector("input[name=players]:checked");
    var players = chosen ? parseInt(chosen.value, 10) : 2;
    var seats = document.querySelectorAll("[data-seat]");
    for (var i = 0; i < seats.length; i++) {
      seats[i].hidden = parseInt(seats[i].getAttribute("data-seat"), 10) > players;
    }
  }
  document.addEventListener("change", function (event) {
    if (event.target.name === "players") showSeats();
  });
  document.addEventListener("DOMContentLoaded", showSeats);
  if (document.readyState !== "loading") showSeats();
})();
