/* The counts come from the rules engine's search-time question, asked as each
   threshold passes, so the page never applies a rule of its own. */
(function () {
  // The page's language (Django's JavaScript catalogue, /jsi18n/); English without it.
  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, count) { return count === 1 ? one : many; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\((\w+)\)s/g, function (whole, name) { return String(values[name]); });
  };
  var started = null, stopped = 0, timer = null, nextCheck = 0, warnings = 0;
  var elapsedEl = document.getElementById("elapsed");
  var verdict = document.getElementById("verdict");
  var judged = document.getElementById("judged");
  function seconds() { return Math.floor(stopped + (started ? (Date.now() - started) / 1000 : 0)); }
  function show(s) { elapsedEl.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); }
  function ask(s) {
    nextCheck = Infinity;
    fetch("/api/v1/rules/iacta/search-time/", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seconds: s, judged: judged.checked })
    }).then(function (r) { return r.json(); }).then(function (answer) {
      warnings = answer.max_warnings;
      nextCheck = answer.next_warning_after || Infinity;
      verdict.textContent = warnings
        // Translators: citations are rule numbers ("904.2, 904.4").
        ? interpolate(ngettext("Up to %(count)s Slow Play Warning may be issued (%(citations)s).",
          "Up to %(count)s Slow Play Warnings may be issued (%(citations)s).", warnings),
        { count: warnings, citations: answer.citations.join(", ") }, true)
        : gettext("No warning yet.") + " " + (answer.next_warning_after
          // Translators: seconds of search time ("after 180 s").
          ? interpolate(gettext("The first is possible after %(seconds)s s."), { seconds: answer.next_warning_after }, true)
          : "");
      verdict.classList.toggle("warn", warnings > 0);
    }).catch(function () {
      verdict.textContent = gettext("Could not reach the rules engine; check the connection.");
      nextCheck = s + 5;
    });
  }
  function tick() { var s = seconds(); show(s); if (s >= nextCheck) ask(s); }
  document.getElementById("start").onclick = function () {
    if (started) return;
    started = Date.now(); if (nextCheck === 0) ask(0);
    timer = setInterval(tick, 250);
  };
  document.getElementById("stop").onclick = function () {
    if (!started) return; stopped = seconds(); started = null; clearInterval(timer); tick();
  };
  document.getElementById("reset").onclick = function () {
    started = null; stopped = 0; clearInterval(timer); nextCheck = 0; show(0);
    verdict.textContent = gettext("No warning yet."); verdict.classList.remove("warn");
  };
  judged.onchange = function () { ask(seconds()); };
})();
