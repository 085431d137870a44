/* Forms that write, sent again when no answer came back (My match, the organiser dashboard).

   A phone on the venue's wifi, or a web worker restarting under a request, can lose the
   answer to a report: the browser shows its own error page and the player cannot tell
   whether the report counted. A form marked data-resend that carries its one-time token
   (the hidden field "once", {% once_token %}; tournaments/once.py) is sent by this script:

   * The body is what the browser would send (the pressed button's name and value too,
     URL-encoded, the CSRF and one-time tokens included), by fetch with this site's cookies.
   * No answer (the connection fails or drops, nothing within 15 s, or the proxy's 502,
     503 or 504): the SAME body is sent again after 1, 2 and 4 s, four attempts in all, none
     started later than 15 s after the press, and a polite status says so ("No answer from
     the server — sending again (attempt 2 of 4)…"). The server answers a token it has
     already answered with its first answer and writes nothing, so a report that did
     arrive is never counted twice.
   * An answer is shown as the browser would: a redirect is followed (the flash messages
     the fetch already read, "Result reported…", are carried over in sessionStorage and
     shown on arrival); any other page (a refusal, an error page) replaces this one.
   * Still no answer after the last attempt: an alert says the report may not have been
     received, that sending it again is safe (never counted twice), and its button sends
     the same body again (same token).
   * The form's submit buttons are disabled while it is being sent: no double taps.

   A form marked data-resend without the token is left to the browser (posted once, never
   sent again: without the token a second send could write twice). Without JavaScript
   every form posts as before. Strings go through the page's catalogue (/jsi18n/). */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\((\w+)\)s/g, function (whole, name) { return String(values[name]); });
  };
  var TOKEN_FIELD = "once";
  var WAITS_MS = [1000, 2000, 4000]; // before attempts 2, 3 and 4
  var ATTEMPTS = WAITS_MS.length + 1;
  var ANSWER_WITHIN_MS = 15000; // an attempt still unanswered then counts as no answer
  var RETRY_WITHIN_MS = 15000; // no attempt starts later than this after the press
  var NO_ANSWER_STATUS = [502, 503, 504]; // the proxy's: the site never answered
  var CARRIED = "arbiter-resend-said"; // sessionStorage: the messages a followed redirect showed
  var jobs = typeof WeakMap === "function" ? new WeakMap() : null; // form: its latest send

  // --- what the browser would send ----------------------------------------------------------

  function tokenOf(form) {
    var field = form.querySelector('input[name="' + TOKEN_FIELD + '"]');
    return field ? field.value : "";
  }

  // Where the form posts. Not form.action: a field named "action" (My match has one)
  // shadows it.
  function actionOf(form) {
    return new URL(form.getAttribute("action") || "", document.baseURI).href;
  }

  function bodyOf(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name && !submitter.disabled) data.append(submitter.name, submitter.value);
    return new URLSearchParams(data).toString();
  }

  function submitButtons(form) {
    return form.querySelectorAll("button:not([type]), button[type=submit], input[type=submit], input[type=image]");
  }

  function setBusy(job, busy) {
    job.busy = busy;
    Array.prototype.forEach.call(submitButtons(job.form), function (button) { button.disabled = busy; });
    if (busy) job.form.setAttribute("aria-busy", "true");
    else job.form.removeAttribute("aria-busy");
  }

  // --- one attempt: an answer, or null for none ----------------------------------------------

  function attempt(job) {
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, ANSWER_WITHIN_MS) : null;
    return fetch(job.url, {
      method: "POST",
      body: job.body,
      headers: { "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8" },
      credentials: "same-origin",
      cache: "no-store",
      redirect: "follow",
      signal: controller ? controller.signal : undefined,
    }).then(function (response) {
      if (NO_ANSWER_STATUS.indexOf(response.status) >= 0) return null;
      return response.text().then(function (text) { return { response: response, text: text }; });
    }).catch(function () {
      return null; // refused, dropped, timed out, or the answer cut off while it was read
    }).then(function (answer) {
      if (timer) clearTimeout(timer);
      return answer;
    });
  }

  function wait(ms) {
    return new Promise(function (resolve) { setTimeout(resolve, ms); });
  }

  function run(job, number) {
    return attempt(job).then(function (answer) {
      if (answer) return showAnswer(answer);
      var next = Date.now() + WAITS_MS[number - 1] - job.started;
      if (number >= ATTEMPTS || next > RETRY_WITHIN_MS) return giveUp(job);
      say(job, interpolate(
        gettext("No answer from the server — sending again (attempt %(attempt)s of %(attempts)s)…"),
        { attempt: number + 1, attempts: ATTEMPTS }, true));
      return wait(WAITS_MS[number - 1]).then(function () { return run(job, number + 1); });
    });
  }

  function send(job) {
    setBusy(job, true);
    job.failed.hidden = true;
    job.again.disabled = true;
    job.started = Date.now();
    return run(job, 1);
  }

  // --- the answer, as the browser would show it -----------------------------------------------

  function showAnswer(answer) {
    var response = answer.response;
    if (response.redirected) {
      carryMessages(answer.text, response.url);
      window.location.assign(response.url);
      return;
    }
    document.open();
    document.write(answer.text);
    document.close();
  }

  // The fetch that followed the redirect read the page, and with it the flash messages
  // the server keeps for one page: they go with us to the page we now open.
  function carryMessages(html, url) {
    try {
      var page = new DOMParser().parseFromString(html, "text/html");
      var said = [], seen = {};
      Array.prototype.forEach.call(page.querySelectorAll("main .messages .flash"), function (flash) {
        var message = { kind: flash.className, text: flash.textContent };
        var key = message.kind + "\n" + message.text;
        if (seen[key]) return; // the first answer's and the resend's: the same words once
        seen[key] = true;
        said.push(message);
      });
      if (said.length) window.sessionStorage.setItem(CARRIED, JSON.stringify({ url: url, said: said }));
    } catch (e) { /* no storage here: the page itself still shows what changed */ }
  }

  function showCarriedMessages() {
    var carried = null;
    try {
      carried = JSON.parse(window.sessionStorage.getItem(CARRIED) || "null");
      window.sessionStorage.removeItem(CARRIED);
    } catch (e) { return; }
    var main = document.querySelector("main");
    if (!carried || !main || carried.url.split("#")[0] !== window.location.href.split("#")[0]) return;
    var section = document.createElement("section");
    section.className = "messages";
    section.setAttribute("aria-live", "polite");
    carried.said.forEach(function (message) {
      var line = document.createElement("p");
      line.className = message.kind;
      line.setAttribute("role", "status");
      line.textContent = message.text;
      section.appendChild(line);
    });
    main.insertBefore(section, main.firstChild);
  }

  // --- what the person reads meanwhile ----------------------------------------------------------

  function stateFor(form) {
    var box = document.createElement("div");
    box.className = "resend-state";
    var status = document.createElement("p");
    status.className = "resend-status";
    status.setAttribute("role", "status");
    var failed = document.createElement("div");
    failed.className = "resend-failed flash flash-error";
    failed.setAttribute("role", "alert");
    failed.hidden = true;
    var text = document.createElement("p");
    text.textContent = gettext("No answer from the server: what you sent may not have been received. Sending it again is safe: it is never counted twice.");
    var again = document.createElement("button");
    again.type = "button";
    again.textContent = gettext("Send it again");
    failed.appendChild(text);
    failed.appendChild(again);
    box.appendChild(status);
    box.appendChild(failed);
    form.parentNode.insertBefore(box, form.nextSibling);
    return { box: box, status: status, failed: failed, again: again };
  }

  // A live region refreshed meanwhile (live.js) takes the form and its state with it: what
  // is still to say goes at the top of the page instead.
  function shown(job) {
    if (!document.body.contains(job.box)) {
      var main = document.querySelector("main") || document.body;
      main.insertBefore(job.box, main.firstChild);
    }
  }

  function say(job, text) {
    shown(job);
    job.status.textContent = text;
  }

  function giveUp(job) {
    shown(job);
    job.status.textContent = "";
    job.failed.hidden = false;
    job.again.disabled = false;
    setBusy(job, false);
    var focus = document.activeElement;
    if (!focus || focus === document.body || job.form.contains(focus) || job.box.contains(focus)) {
      job.again.focus(); // where the person was: on the form they sent
    } else {
      job.failed.scrollIntoView({ block: "nearest" });
    }
  }

  // --- the forms --------------------------------------------------------------------------------

  function handled(form) {
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-resend")) return false;
    if ((form.getAttribute("method") || "get").toLowerCase() !== "post") return false;
    if (!tokenOf(form)) {
      // Without the one-time token a second send could write twice: the browser posts it once.
      if (window.console) window.console.warn("data-resend without a one-time token: posted as usual", form);
      return false;
    }
    return true;
  }

  // On window, after every other submit listener: a form they stopped (data-confirm
  // answered "Cancel") is not sent.
  window.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !handled(form)) return;
    event.preventDefault();
    var earlier = jobs && jobs.get(form);
    if (earlier && earlier.busy) return; // a second tap while it is on its way
    if (earlier) earlier.box.remove(); // sent anew from the form: one state under it
    var job = stateFor(form);
    job.form = form;
    job.url = actionOf(form);
    job.body = bodyOf(form, event.submitter);
    job.again.addEventListener("click", function () {
      job.status.textContent = gettext("Sending again…");
      send(job);
    });
    if (jobs) jobs.set(form, job);
    send(job);
  });

  // Back to a page kept in the browser's memory: its forms can be sent again.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    Array.prototype.forEach.call(document.querySelectorAll("form[data-resend][aria-busy]"), function (form) {
      var job = jobs && jobs.get(form);
      if (job) setBusy(job, false);
    });
  });

  showCarriedMessages();
})();
