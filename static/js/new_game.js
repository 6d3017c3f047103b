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
  // A seat given to a bot needs no friend's name: its box hides (unless a name was typed, so that
  // the form's error about it stays in view).
  function showFriendBoxes() {
    var boxes = document.querySelectorAll("[data-seat-friend]");
    for (var i = 0; i < boxes.length; i++) {
      var n = boxes[i].getAttribute("data-seat-friend");
      var choice = document.querySelector("select[name=seat_" + n + "]");
      var input = boxes[i].querySelector("input");
      boxes[i].hidden = !!(choice && choice.value && !(input && input.value));
    }
  }
  // Only the chosen clock's boxes show; the hidden ones are disabled, so they are not posted.
  function showClock() {
    var chosen = document.querySelector("input[name=clock]:checked");
    var kind = chosen ? chosen.value : "turn";
    var parts = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < parts.length; i++) {
      var off = parts[i].getAttribute("data-clock") !== kind;
      parts[i].hidden = off;
      var inputs = parts[i].querySelectorAll("input, select");
      for (var j = 0; j < inputs.length; j++) inputs[j].disabled = off;
    }
    // Without a limit per turn there is no clock to pause: the weekend box goes too (the form
    // refuses a pause with no limit, which is what a page without scripts still shows).
    var limit = document.querySelector("select[name=turn_limit_days]");
    var pause = document.querySelector("[data-clock-pause]");
    if (pause) {
      var none = kind === "turn" && !!limit && !limit.value;
      pause.hidden = none;
      var box = pause.querySelector("input");
      if (box) box.disabled = none;
    }
  }
  document.addEventListener("change", function (event) {
    if (event.target.name === "clock" || event.target.name === "turn_limit_days") showClock();
    if (event.target.name === "players") showSeats();
    if (/^seat_/.test(event.target.name || "")) showFriendBoxes();
  });
  document.addEventListener("DOMContentLoaded", showFriendBoxes);
  if (document.readyState !== "loading") showFriendBoxes();
  document.addEventListener("DOMContentLoaded", showClock);
  if (document.readyState !== "loading") showClock();
  document.addEventListener("DOMContentLoaded", showSeats);
  if (document.readyState !== "loading") showSeats();
})();
