// The game page's only script: htmx does the requests; this keeps a few small promises.
(function () {
  "use strict";

  // The board can be tapped: the forms that name hexes in words are for pages without scripts.
  document.documentElement.classList.add("js");

  // "You have a seat at this table" and the like are news for the first look only: the page is
  // never reloaded while playing, so they go once the player does something.
  document.body.addEventListener("htmx:afterRequest", function () {
    var notes = document.querySelectorAll(".messages .message-success");
    for (var i = 0; i < notes.length; i++) notes[i].remove();
  });

  // Every action says which version of the game it was chosen on. Fragments are swapped one by
  // one, so the freshest version is the one in #game-version, not the one a form was drawn with.
  document.body.addEventListener("htmx:configRequest", function (event) {
    var current = document.getElementById("game-version");
    if (current && event.detail.verb === "post") {
      event.detail.parameters.version = current.value;
    }
  });

  // A move of one's own arrives as one new log entry on top: the log keeps its length.
  document.body.addEventListener("htmx:oobAfterSwap", function (event) {
    var log = event.detail.target;
    if (!log || log.id !== "move-log") return;
    var limit = parseInt(log.getAttribute("data-limit"), 10);
    while (limit && log.children.length > limit) log.removeChild(log.lastElementChild);
  });

  // Board hexes that can be chosen are SVG groups with role="button": make Enter and Space work.
  document.body.addEventListener("keydown", function (event) {
    var target = event.target;
    if ((event.key === "Enter" || event.key === " ") && target.getAttribute &&
        target.getAttribute("role") === "button" && target.tagName.toLowerCase() === "g") {
      event.preventDefault();
      target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
  });
  // When the turn comes to this player (the poll fetched a new board), the tab title counts one
  // more game waiting, and a background tab shows a browser notification if the player allowed
  // them. Permission is asked only when they click the button, never on load.
  function myTurn() {
    var poll = document.getElementById("poll");
    return !!poll && poll.getAttribute("data-my-turn") === "yes";
  }

  function showCount(change) {
    var badge = document.getElementById("waiting-count");
    var count = Math.max(0, (badge ? parseInt(badge.getAttribute("data-count"), 10) || 0 : 0) + change);
    if (badge) {
      badge.setAttribute("data-count", count);
      badge.firstChild.nodeValue = String(count);
    }
    var title = document.title.replace(/^\(\d+\) /, "");
    document.title = count ? "(" + count + ") " + title : title;
  }

  function notify() {
    if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
    var game = document.getElementById("game");
    var name = game ? game.getAttribute("data-title") : "";
    // The words come from the page, in the reader's language (games/game.html).
    var title = game ? game.getAttribute("data-notify-title") : "";
    var body = game ? game.getAttribute("data-notify-body") : "";
    var note = new Notification(title || "Your turn", {
      body: body || "It is your turn in " + name + ".",
      tag: "harmonies-game-" + (game ? game.getAttribute("data-game") : ""),
    });
    note.onclick = function () { window.focus(); note.close(); };
  }

  var wasMyTurn = myTurn();
  document.body.addEventListener("htmx:afterSettle", function () {
    var now = myTurn();
    if (now !== wasMyTurn) {
      showCount(now ? 1 : -1);
      if (now) notify();
    }
    wasMyTurn = now;
  });

  // A refusal in words answers htmx with 200 and its status in a header (the browser would log a
  // 4xx as a failure): harmonies_site.middleware.HtmxRefusalsMiddleware.
  function refused(xhr) {
    return xhr.status >= 400 || !!xhr.getResponseHeader("X-Refused-Status");
  }

  // Table talk: a sent message empties the box (a refused one stays, with the reason under it),
  // and the phone's action bar says how many messages are new. The poll may redraw the talk while
  // the message is on its way: htmx then reports the answer to the detached old form, whose events
  // never reach the body. So the box is emptied from the request itself, found again by its id,
  // and the list is fetched again if the answer had nowhere left to go.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!form || form.id !== "talk-form") return;
    var box = document.getElementById("talk-text");
    var sent = box ? box.value : "";
    var xhr = event.detail.xhr;
    xhr.addEventListener("load", function () {
      if (xhr.status >= 300 || refused(xhr)) return;
      var now = document.getElementById("talk-text");
      if (now && now.value === sent) now.value = "";
      var error = document.getElementById("talk-error");
      if (error) error.textContent = "";
      if (!form.isConnected) htmx.trigger(document.body, "talk-changed");
    });
  });

  // Any refusal of a talk form goes under the form, whoever wrote it (the view retargets its
  // own; the site's NUL-byte and CSRF refusals do not know the talk). Not a report's (its form
  // shows its own), nor one the server sends elsewhere (a suspended account's, to #main).
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    var error = document.getElementById("talk-error");
    if (!refused(event.detail.xhr) || !error || !elt || !elt.closest || !elt.closest("#talk")) return;
    if (elt.closest("#talk-report") || elt.closest(".talk-report-link")) return;
    if (event.detail.xhr.getResponseHeader("HX-Retarget")) return;
    event.detail.target = error;
    event.detail.swapOverride = "innerHTML";
  });

  function showTalkCount() {
    var messages = document.getElementById("talk-messages");
    var count = messages ? parseInt(messages.getAttribute("data-unread"), 10) || 0 : 0;
    var spots = document.querySelectorAll(".talk-jump-count");
    for (var i = 0; i < spots.length; i++) spots[i].textContent = count ? "(" + count + ")" : "";
  }
  // The newest message is at the bottom of the list: show it whenever the list grows or shrinks.
  var talkSize = -1;
  function showNewest() {
    var list = document.querySelector("#talk-messages .talk-list");
    if (!list) return;
    if (list.children.length !== talkSize) list.scrollTop = list.scrollHeight;
    talkSize = list.children.length;
  }
  showTalkCount();
  showNewest();
  document.body.addEventListener("htmx:afterSettle", function () {
    showTalkCount();
    showNewest();
  });

  // The offer is part of the game, drawn again with it (and gone once the game is over).
  function offerNotifications() {
    var offer = document.getElementById("notify-offer");
    if (!offer || !("Notification" in window) || Notification.permission !== "default") return;
    offer.hidden = false;
    var button = document.getElementById("notify-button");
    if (button.getAttribute("data-ready")) return;
    button.setAttribute("data-ready", "yes");
    button.addEventListener("click", function () {
      var asked = Notification.requestPermission(function () {});  // older browsers: a callback
      var done = function () { offer.hidden = Notification.permission !== "default"; };
      if (asked && asked.then) asked.then(done); else done();
    });
  }
  offerNotifications();
  document.body.addEventListener("htmx:afterSettle", offerNotifications);
})();
