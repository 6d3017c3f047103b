// The service worker, served at /sw.js so that its scope is the whole site. It only shows the
// notifications the server pushes ("your turn", "game over", a message at the table) and, on a
// click, focuses a tab already showing that game or opens one. It caches nothing.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

// Only addresses of this site are opened: a push names a path, never another origin.
function sameOriginUrl(url) {
  try {
    var target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + "/";
  } catch (error) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {}; }
  var title = typeof data.title === "string" && data.title ? data.title : "Harmonies";
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof data.body === "string" ? data.body : "",
    tag: typeof data.tag === "string" ? data.tag : undefined,
    renotify: Boolean(data.tag),
    silent: Boolean(data.silent),
    icon: "/static/img/favicon.svg",
    data: { url: sameOriginUrl(data.url) }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || self.location.origin + "/";
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (tabs) {
    for (var i = 0; i < tabs.length; i++) {
      if (tabs[i].url.split("#")[0] === url && "focus" in tabs[i]) return tabs[i].focus();
    }
    return self.clients.openWindow(url);
  }));
});

