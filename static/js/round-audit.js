/* A round's audit page (tournaments/pages/round_audit.py): "Check it in your browser".

   The button fetches the round's two documents (state.json and pairing.json, the same
   files the page offers for download) and runs the checker in this page,
   window.ArbiterVerify.verify (static/js/pairing-verify.js, loaded before this script).
   Its answer goes to the page's polite live region: "valid and optimal" with what was
   proven (ArbiterVerify.summary), or "refused" with what failed. Nothing is sent
   anywhere: the check runs on this machine. Strings go through the page's catalogue
   (/jsi18n/). */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\((\w+)\)s/g, function (whole, name) { return String(values[name]); });
  };

  function load(url) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error(interpolate(gettext("%(url)s answered %(status)s"),
          { url: url, status: response.status }, true));
        return response.json();
      });
  }

  function say(region, text, outcome) {
    region.textContent = text;
    region.classList.remove("ok", "bad");
    if (outcome) region.classList.add(outcome);
  }

  function check(button, region) {
    var checker = window.ArbiterVerify;
    if (!checker || typeof checker.verify !== "function") {
      say(region, gettext("The checker did not load in this browser: download the files and run the command below."), "bad");
      return;
    }
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    say(region, gettext("Checking…"));
    Promise.all([load(button.dataset.stateUrl), load(button.dataset.pairingUrl)])
      .then(function (documents) {
        var result = checker.verify(documents[0], documents[1]);
        if (result && result.ok) {
          var summary = typeof checker.summary === "function" ? checker.summary(result.proven) : "";
          say(region, interpolate(gettext("Checked in your browser: valid and optimal. %(summary)s"),
            { summary: summary }, true), "ok");
        } else {
          say(region, interpolate(gettext("Checked in your browser: refused. %(message)s"),
            { message: result ? result.message : "" }, true), "bad");
        }
      })
      .catch(function (error) {
        say(region, interpolate(gettext("The files could not be checked: %(error)s"),
          { error: error && error.message ? error.message : String(error) }, true), "bad");
      })
      .then(function () {
        button.disabled = false;
        button.removeAttribute("aria-busy");
      });
  }

  function start() {
    var buttons = document.querySelectorAll("[data-audit-check]");
    Array.prototype.forEach.call(buttons, function (button) {
      var region = document.getElementById(button.getAttribute("aria-describedby"));
      if (!region) return;
      button.addEventListener("click", function () { check(button, region); });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
