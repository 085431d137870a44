/* My match, the player's phone page (templates/tournaments/my_match.html).

   * Paired: live.js refreshes the region on the player's own "my_match" notices (and on
     round and extension notices). When a refreshed copy shows another seat than before
     (data-seat-text on its root: "Round 4 — table 12 vs Grace Hopper"), the banner says
     so, always; where the browser allows, a notification too and a vibration.
   * "Tell me when I am paired" asks for notification permission (only from that tap);
     with Web Push configured (data-push-key) the phone subscribes and the server keeps
     the subscription (data-push-subscribe), so pairings arrive with the page closed.
   * "Who won each game?": one game at a time (Me / Opponent / Draw), the next shown once
     this one is answered and none after the game that decided the match; without
     JavaScript every game shows and the server stops at the decider.
   * A tapped score ("2-1", under "Only the score") asks first, "Report 2-1 (you won)?" with a Confirm button
     that posts the page's one report form; Cancel forgets it.
   * The service worker (/sw.js) keeps the last copy of this page readable offline. */
(function () {
  "use strict";
  var page = document.querySelector("[data-my-match-page]");
  if (!page) return;
  // The page's language (Django's JavaScript catalogue, /jsi18n/); English without it.
  var gettext = window.gettext || function (text) { return text; };
  var region = page.querySelector("[data-live-refresh]");
  var banner = page.querySelector("[data-paired-banner]");
  var notifyBox = page.querySelector("[data-notify]");
  var notifyButton = page.querySelector("[data-notify-button]");
  var notifyState = page.querySelector("[data-notify-state]");
  var eventId = page.getAttribute("data-live-event");
  var seat = seatShown();
  var pending = null; // the tapped score waiting for Confirm: {score, question}
  var lastNotice = null; // the latest "my_match" notice: the seat it announced

  function seatShown() {
    var state = region && region.querySelector("[data-seat-text]");
    return state ? state.getAttribute("data-seat-text") : "";
  }

  // --- paired ------------------------------------------------------------------------------

  // The sticky banner covers the top of the screen: what the page scrolls to stops below
  // it (my-match.css reads --paired-banner-room as each element's scroll-margin-top).
  function makeRoom() {
    var room = banner.hidden ? 0 : banner.getBoundingClientRect().height;
    page.style.setProperty("--paired-banner-room", Math.ceil(room) + "px");
  }

  function tell(text) {
    banner.textContent = text;
    banner.hidden = false;
    makeRoom();
    if (navigator.vibrate) {
      try { navigator.vibrate([200, 100, 200]); } catch (e) { /* not allowed here */ }
    }
    notify(text);
  }

  function notify(text) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    var title = document.title.split(" · ").slice(1, -1).join(" · ") || "Arbiter";
    var options = { body: text, tag: "arbiter-" + eventId + "-pairing", renotify: true };
    function inPage() {
      try { new Notification(title, options); } catch (e) { /* phones allow only the worker's */ }
    }
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.ready
        .then(function (registration) { return registration.showNotification(title, options); })
        .catch(inPage);
    } else {
      inPage();
    }
  }

  window.addEventListener("resize", function () { if (!banner.hidden) makeRoom(); });

  document.addEventListener("arbiter:notice", function (event) {
    var notice = event.detail || {};
    if (notice.type === "my_match") lastNotice = { round: notice.round, table: notice.table };
  });

  document.addEventListener("arbiter:refreshed", function (event) {
    if (event.target !== region) return;
    var now = seatShown();
    if (now && now !== seat) tell(now);
    seat = now;
    lastNotice = null;
    if (pending) ask(pending.score);
  });

  // --- a tapped score asks before it posts ------------------------------------------------

  function confirmForm() {
    return region.querySelector("[data-tap-confirm]");
  }

  function ask(score) {
    var tap = region.querySelector('[data-tap-score="' + score + '"]');
    var form = confirmForm();
    if (!tap || !form) { pending = null; return; } // the result is no longer the player's to report
    var question = tap.getAttribute("data-tap-question");
    pending = { score: score };
    form.querySelector("[data-tap-question-text]").textContent = question;
    var send = form.querySelector("[data-tap-send]");
    send.value = score;
    form.hidden = false;
    send.focus();
  }

  page.addEventListener("click", function (event) {
    var tap = event.target.closest("[data-tap-score]");
    if (tap && region.contains(tap)) {
      event.preventDefault();
      ask(tap.getAttribute("data-tap-score"));
      return;
    }
    if (event.target.closest("[data-tap-cancel]")) {
      event.preventDefault();
      pending = null;
      var form = confirmForm();
      if (form) form.hidden = true;
    }
  });

  page.addEventListener("submit", function (event) {
    var send = event.target.querySelector && event.target.querySelector("[data-tap-send]");
    if (send) { pending = null; send.setAttribute("aria-busy", "true"); }
  });

  // --- game by game: the next game once this one is answered, none after the decider ------

  function showGames(form) {
    var needed = parseInt(form.getAttribute("data-games-needed"), 10) || 2;
    var mine = 0, theirs = 0, draws = 0, open = true;
    Array.prototype.forEach.call(form.querySelectorAll("[data-game]"), function (fieldset) {
      var picked = fieldset.querySelector("input:checked");
      fieldset.hidden = !open;
      if (!open) {
        if (picked) picked.checked = false; // a game after the decider is never sent
        return;
      }
      if (!picked) { open = false; return; }
      if (picked.value === "me") mine++;
      else if (picked.value === "opponent") theirs++;
      else draws++;
      if (mine >= needed || theirs >= needed) open = false;
    });
    var summary = form.querySelector("[data-game-summary]");
    var played = mine + theirs + draws;
    if (summary) {
      summary.textContent = played
        ? gettext("Your score (your wins first):") + " " + mine + "-" + theirs + (draws ? "-" + draws : "")
        : "";
    }
  }

  function gameForms() {
    Array.prototype.forEach.call(page.querySelectorAll("[data-game-report]"), showGames);
  }

  page.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("[data-game-report]");
    if (form) showGames(form);
  });
  document.addEventListener("arbiter:refreshed", gameForms);
  gameForms();

  // --- notifications and Web Push ---------------------------------------------------------

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) { return ""; }
  }

  function keyBytes(base64url) {
    var text = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(text), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function subscribePush() {
    var key = page.getAttribute("data-push-key");
    if (!key || !("serviceWorker" in navigator) || !("PushManager" in window)) {
      return Promise.resolve(false);
    }
    return navigator.serviceWorker.ready.then(function (registration) {
      return registration.pushManager.getSubscription().then(function (existing) {
        return existing || registration.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: keyBytes(key),
        });
      });
    }).then(function (subscription) {
      return fetch(page.getAttribute("data-push-subscribe"), {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(subscription.toJSON()),
      });
    }).then(function (response) { return response.ok; }).catch(function () { return false; });
  }

  function showNotifyState(pushed) {
    var permission = Notification.permission;
    notifyButton.hidden = permission !== "default";
    notifyState.textContent = permission === "granted"
      ? (pushed ? gettext("You will be told on this phone when you are paired, even with this page closed.")
        : gettext("You will be told on this phone when you are paired while this page is open."))
      : permission === "denied"
        ? gettext("Notifications are blocked in this browser's settings: the banner here still tells you.")
        : "";
  }

  if ("Notification" in window && notifyBox) {
    notifyBox.hidden = false;
    showNotifyState(false);
    if (Notification.permission === "granted") subscribePush().then(showNotifyState);
    notifyButton.addEventListener("click", function () {
      var asked = Notification.requestPermission();
      Promise.resolve(asked).then(function () {
        if (Notification.permission !== "granted") { showNotifyState(false); return; }
        return subscribePush().then(showNotifyState);
      });
    });
  }

  // --- the installable app ----------------------------------------------------------------

  if ("serviceWorker" in navigator && page.getAttribute("data-worker")) {
    navigator.serviceWorker.register(page.getAttribute("data-worker"), { scope: "/" })
      .catch(function () { /* the page works without it, online */ });
  }

  window.arbiterMyMatch = { seat: function () { return seat; }, lastNotice: function () { return lastNotice; } };
})();
