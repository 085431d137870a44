/* Live pages (live-updates.md): one socket per page to /ws/events/<id>/.

   Markup:
     <… data-live-event="7">                     the event this page follows (one per page)
     <… data-live-refresh="pairings round" data-live-url="/…/fragment/">
                                                 a region fetched afresh (innerHTML) when a
                                                 notice of one of these types arrives
     <… data-live-updated>                       says when the page last updated, and how,
                                                 on the clock of <html data-time-zone="…">
   Every notice is also dispatched on document as "arbiter:notice" (detail: the notice);
   every refreshed region dispatches "arbiter:refreshed" (bubbles).
   A region is never swapped under a press: while a pointer or a key is pressing a control
   in it, or a field or list in it has the focus, its new content waits (the region
   carries data-live-waiting) and goes in once the press ends or the focus leaves, so a
   click on "Close round" lands on the button it started on. Content the same as the
   last is not swapped at all, and the focused control keeps the focus across a swap.
   Without a socket (refused, blocked, server down) the regions are fetched every 30 s,
   so the page keeps working and says so. A socket that opens (again) refreshes every
   region: notices sent while it was away are not replayed. */
(function () {
  "use strict";
  var root = document.querySelector("[data-live-event]");
  if (!root) return;
  // The page's language (Django's JavaScript catalogue, /jsi18n/); English without it.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\((\w+)\)s/g, function (whole, name) { return String(values[name]); });
  };
  var eventId = root.getAttribute("data-live-event");
  var POLL_MS = 30000, RETRY_MAX_MS = 30000;
  var socket = null, retryMs = 1000, pollTimer = null, pingTimer = null, state = "connecting";
  var lastUpdate = new Date();

  function regions(type) {
    var all = document.querySelectorAll("[data-live-refresh][data-live-url]");
    return Array.prototype.filter.call(all, function (el) {
      return !type || el.getAttribute("data-live-refresh").split(/\s+/).indexOf(type) >= 0;
    });
  }

  // What is being pressed now (a pointer or Enter/Space held on it), and the regions whose
  // new content waits for that press, or the focus in them, to end.
  var pressed = null, waiting = [];
  var FOCUS_HOLDS = "textarea, select, input:not([type=button]):not([type=submit])" +
    ":not([type=reset]):not([type=checkbox]):not([type=radio]):not([type=hidden])";

  function busy(el) {
    if (pressed && el.contains(pressed)) return true;
    var focused = document.activeElement;
    return !!focused && el.contains(focused) && focused.matches(FOCUS_HOLDS);
  }

  function swap(el, html) {
    el.removeAttribute("data-live-waiting");
    if (el.liveContent !== html) {
      var focused = document.activeElement;
      var focusId = focused && el.contains(focused) ? focused.id : "";
      el.innerHTML = html;
      el.liveContent = html;
      if (window.htmx) window.htmx.process(el);
      var again = focusId && document.getElementById(focusId);
      if (again && el.contains(again)) again.focus({ preventScroll: true });
    }
    lastUpdate = new Date();
    stamp();
    el.dispatchEvent(new CustomEvent("arbiter:refreshed", { bubbles: true }));
  }

  function refresh(el) {
    return fetch(el.getAttribute("data-live-url"), {
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-Requested-With": "live" },
    }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.text();
    }).then(function (html) {
      // Typed into while this was on its way (live-hold.js): keep the typing, catch up later.
      if (el.hasAttribute("data-live-held")) { el.setAttribute("data-live-missed", ""); return; }
      if (busy(el)) {
        el.liveWaiting = html;
        el.setAttribute("data-live-waiting", "");
        if (waiting.indexOf(el) < 0) waiting.push(el);
        return;
      }
      swap(el, html);
    }).catch(function () { stamp(); });
  }

  // The press or the focus ended: what waited goes in. A press that sent a form (the click
  // landed) is followed by a fresh fetch rather than the content held from before it.
  function pressEnded() {
    waiting.slice().forEach(function (el) {
      if (busy(el)) return;
      waiting.splice(waiting.indexOf(el), 1);
      var html = el.liveWaiting, sent = el.liveSent;
      el.liveWaiting = el.liveSent = null;
      if (sent) refresh(el); else swap(el, html);
    });
  }

  function later() { setTimeout(pressEnded, 0); }  // after the click the press makes
  document.addEventListener("pointerdown", function (event) { pressed = event.target; }, true);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter" || event.key === " ") pressed = event.target;
  }, true);
  ["pointerup", "pointercancel", "keyup"].forEach(function (type) {
    document.addEventListener(type, function () { pressed = null; later(); }, true);
  });
  document.addEventListener("focusout", later, true);
  document.addEventListener("submit", function (event) {
    waiting.forEach(function (el) { if (el.contains(event.target)) el.liveSent = true; });
  }, true);

  function refreshAll() { regions(null).forEach(refresh); }

  // One clock per page: the page's own zone (<html data-time-zone>, the venue's on an
  // event's pages), never the browser's, and 24-hour like every time the server writes.
  var clock = (function () {
    var page = document.documentElement;
    var options = { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" };
    var zone = page.getAttribute("data-time-zone");
    if (zone) options.timeZone = zone;
    try {
      return new Intl.DateTimeFormat(page.lang || undefined, options);
    } catch (e) {  // a zone this browser does not know: its own clock, still 24-hour
      delete options.timeZone;
      return new Intl.DateTimeFormat(undefined, options);
    }
  })();

  function clockText(date) {
    return clock.format(date);
  }

  function stamp() {
    // Translators: how a live page gets its updates ("Updated 14:02:11 · live").
    var how = state === "live" ? gettext("live")
      // Translators: the live page is opening its connection to the server.
      : state === "connecting" ? gettext("connecting")
      : state === "refused" ? gettext("not live here: refreshing every 30 s")
      : gettext("reconnecting: refreshing every 30 s");
    // Translators: time is the clock time of the last update; how is "live", "connecting"…
    var line = interpolate(gettext("Updated %(time)s · %(how)s"), { time: clockText(lastUpdate), how: how }, true);
    document.querySelectorAll("[data-live-updated]").forEach(function (el) {
      el.textContent = line;
      el.setAttribute("data-live-state", state);
    });
    document.documentElement.setAttribute("data-live-state", state);
  }

  function startPolling() {
    if (pollTimer) return;
    pollTimer = setInterval(refreshAll, POLL_MS);
  }

  function stopPolling() {
    if (pollTimer) clearInterval(pollTimer);
    pollTimer = null;
  }

  function onNotice(message) {
    var notice;
    try { notice = JSON.parse(message.data); } catch (e) { return; }
    if (!notice || notice.type === "pong") return;
    document.dispatchEvent(new CustomEvent("arbiter:notice", { detail: notice }));
    regions(notice.type).forEach(refresh);
  }

  function connect() {
    if (!("WebSocket" in window)) { state = "refused"; stamp(); startPolling(); return; }
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    try {
      socket = new WebSocket(scheme + location.host + "/ws/events/" + eventId + "/");
    } catch (e) { state = "reconnecting"; stamp(); startPolling(); return; }
    socket.onopen = function () {
      retryMs = 1000;
      state = "live";
      stopPolling();
      refreshAll();
      stamp();
      // Keeps idle proxies from closing the socket.
      pingTimer = setInterval(function () {
        if (socket && socket.readyState === 1) socket.send('{"type":"ping"}');
      }, 25000);
    };
    socket.onmessage = onNotice;
    socket.onclose = function (closing) {
      if (pingTimer) clearInterval(pingTimer);
      socket = null;
      startPolling();
      if (closing.code === 4403) { state = "refused"; stamp(); return; }
      state = "reconnecting";
      stamp();
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    };
  }

  stamp();
  connect();
  window.arbiterLive = { refreshAll: refreshAll, state: function () { return state; } };
})();
