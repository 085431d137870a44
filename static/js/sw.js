/* Arbiter's service worker, served at /sw.js (scope /) by push.views.service_worker, which
   puts self.ARBITER_SW on the line above: the app shell's files, the log-out path and a
   version.

   * The shell (styles, scripts, icons) is cached on install and served from the cache.
   * My match (the page and its live fragment) is network-first: each good answer is kept,
     and when the network is down the last one kept is served, its "offline — last known"
     marker shown, so a player can still read their table.
   * Logging out forgets the kept pages (a shared phone shows nobody's match).
   * A push message (push/sender.py) is shown as a notification; a tap opens its page. */
"use strict";
var CONFIG = self.ARBITER_SW || { shell: [], logout: "/accounts/logout/", version: "0" };
var SHELL = "arbiter-shell-" + CONFIG.version;
var PAGES = "arbiter-pages";
var MY_MATCH = /^\/events\/\d+\/my-match\/(fragment\/)?$/;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL).then(function (cache) { return cache.addAll(CONFIG.shell); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("arbiter-shell-") === 0 && name !== SHELL;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function marked(response) {
  return response.text().then(function (html) {
    var headers = new Headers(response.headers);
    headers.set("X-Arbiter-Offline", "last-known");
    headers.delete("Content-Length");
    return new Response(html.replace(/data-offline-marker hidden/g, "data-offline-marker"), {
      status: 200, headers: headers,
    });
  });
}

function networkFirst(request) {
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected && response.type === "basic") {
      var copy = response.clone();
      var key = new URL(request.url);
      key.search = "";
      caches.open(PAGES).then(function (cache) { return cache.put(key.href, copy); });
    }
    return response;
  }).catch(function () {
    return caches.open(PAGES).then(function (cache) {
      return cache.match(request, { ignoreSearch: true, ignoreVary: true });
    }).then(function (kept) {
      return kept ? marked(kept) : Response.error();
    });
  });
}

function endPushSubscription() {
  var manager = self.registration.pushManager;
  if (!manager) return Promise.resolve(false);
  return manager.getSubscription()
    .then(function (subscription) { return subscription ? subscription.unsubscribe() : false; })
    .catch(function () { return false; });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === CONFIG.logout) {
    // Logging out also ends this browser's push subscription: the next account to log in
    // here subscribes a new one (the server never moves an endpoint between accounts).
    event.waitUntil(Promise.all([caches.delete(PAGES), endPushSubscription()]));
    return;
  }
  if (request.method !== "GET") return;
  if (MY_MATCH.test(url.pathname)) {
    event.respondWith(networkFirst(request));
  } else if (CONFIG.shell.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.match(request).then(function (hit) { return hit || fetch(request); }));
  }
});

self.addEventListener("push", function (event) {
  var message = {};
  try { message = event.data ? event.data.json() : {}; } catch (e) { message = { body: event.data.text() }; }
  event.waitUntil(self.registration.showNotification(message.title || "Arbiter", {
    body: message.body || "",
    tag: message.tag || "arbiter",
    renotify: true,
    icon: CONFIG.shell.filter(function (path) { return /icon-192/.test(path); })[0],
    data: { url: message.url || "/" },
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data || {}).url || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === target && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(target);
  }));
});
