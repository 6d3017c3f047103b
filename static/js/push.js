// "Notifications on this device" in the profile: registers /sw.js, asks the browser for a push
// subscription (permission is asked only when the button is clicked) and posts it to the server,
// or takes it back. Loaded as a file: the Content-Security-Policy refuses inline scripts.
(function () {
  "use strict";
  var section = document.querySelector("[data-push]");
  if (!section) return;
  var status = section.querySelector("[data-push-status]");
  var button = section.querySelector("[data-push-toggle]");
  var csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];

  function say(text) { status.textContent = text; }

  function keyBytes(base64url) {
    var text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((base64url.length + 3) % 4));
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return bytes;
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok || !data.ok) throw new Error(data.error || "The site could not save this.");
        return data;
      });
    });
  }

  function show(subscription) {
    button.hidden = false;
    button.disabled = false;
    button.textContent = subscription ? "Turn off on this device" : "Turn on on this device";
    button.setAttribute("aria-pressed", subscription ? "true" : "false");
    if (subscription) say("Notifications are on for this device.");
    else if (Notification.permission === "denied") say("This browser blocks notifications from this site: allow them in its site settings, then turn them on here.");
    else say("Notifications are off for this device.");
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("This browser cannot show notifications from a website." + (window.isSecureContext ? "" : " (The site must be opened over https.)"));
    return;
  }

  var ready = navigator.serviceWorker.register(section.getAttribute("data-worker-url"), { scope: "/" })
    .then(function () { return navigator.serviceWorker.ready; });

  // The page lists the SHA-256 of each endpoint the site knows (an endpoint is a secret).
  function digest(text) {
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(function (buffer) {
      return Array.prototype.map.call(new Uint8Array(buffer), function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
    });
  }
  var known = (section.getAttribute("data-known") || "").split(" ").filter(Boolean);

  ready.then(function (registration) {
    return registration.pushManager.getSubscription().then(function (subscription) {
      if (!subscription) { show(null); return null; }
      return digest(subscription.endpoint).then(function (hex) {
        if (known.indexOf(hex) === -1) {
          // The site forgot it (removed in this list, or its push service said it was gone).
          return subscription.unsubscribe().then(function () { show(null); });
        }
        var mark = document.querySelector('[data-endpoint-digest="' + hex + '"] .this-device');
        if (mark) mark.hidden = false;
        show(subscription);
      });
    });
  }).catch(function () { say("Notifications could not be set up in this browser."); });

  button.addEventListener("click", function () {
    button.disabled = true;
    ready.then(function (registration) {
      return registration.pushManager.getSubscription().then(function (subscription) {
        if (subscription) {
          return post(section.getAttribute("data-unsubscribe-url"), { endpoint: subscription.endpoint })
            .then(function () { return subscription.unsubscribe(); })
            .then(function () { window.location.reload(); });
        }
        return Notification.requestPermission().then(function (permission) {
          if (permission !== "granted") { show(null); return null; }
          return registration.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: keyBytes(section.getAttribute("data-key"))
          }).then(function (created) {
            return post(section.getAttribute("data-subscribe-url"), { subscription: created.toJSON() })
              .catch(function (error) { created.unsubscribe(); throw error; });
          }).then(function () { window.location.reload(); });
        });
      });
    }).catch(function (error) {
      button.disabled = false;
      say(error && error.message ? error.message : "That did not work: please try again.");
    });
  });
})();
