/* Hall display (templates/tournaments/hall.html): turns the pages by itself.

   Markup: <… data-hall data-hall-seconds="12"> around the screen; each screenful is a
   [data-hall-page], all but the one shown [hidden]; [data-hall-mode] names what the
   screen shows. live.js refetches the screen when the event changes; this keeps the
   page turning through it: the same page stays up after a refresh of the same mode (a
   result coming in does not send the screen back to page 1), a new mode or round starts
   at page 1. A fetch that fails changes nothing (live.js keeps the last content), and
   the timer never stops, so the screen keeps paging while the server is away.

   Type that fits: the server gives each page the type size its longest name needs
   (.hall-size-N, hall_screen.type_step, an estimate), and the event's name and the
   winner's theirs (.hall-title-N, .hall-winner-N). Here the shown page is measured: the
   largest size at which no name overflows its cell, none takes more than two lines and
   the columns fit the screen is kept, so no name is ever cut, whatever the font. */
(function () {
  "use strict";
  var hall = document.querySelector("[data-hall]");
  if (!hall) return;
  var seconds = parseInt(hall.getAttribute("data-hall-seconds") || "12", 10) || 12;
  var index = 0;
  var mode = currentMode();

  function currentMode() {
    var el = hall.querySelector("[data-hall-mode]");
    return el ? el.getAttribute("data-hall-mode") : "";
  }

  function pages() {
    return hall.querySelectorAll("[data-hall-page]");
  }

  var TYPE_STEPS = 9, TITLE_STEPS = 4;

  function withStep(el, prefix, step, steps) {
    for (var i = 0; i < steps; i++) el.classList.remove(prefix + i);
    el.classList.add(prefix + step);
  }

  function whole(el) {
    // Nothing cut or spilling sideways, and two lines at most.
    if (el.scrollWidth > el.clientWidth + 1) return false;
    var line = parseFloat(getComputedStyle(el).lineHeight) || 0;
    return !line || el.getBoundingClientRect().height <= line * 2.4;
  }

  function fitsPage(page) {
    var cells = page.querySelectorAll(".hall-row:not(.hall-row-head) > .hall-name, .hall-row:not(.hall-row-head) > .hall-opponent");
    for (var i = 0; i < cells.length; i++) if (!whole(cells[i])) return false;
    var columns = page.querySelectorAll(".hall-column");
    for (var j = 0; j < columns.length; j++) {
      if (columns[j].scrollHeight > columns[j].clientHeight + 1) return false;
    }
    return true;
  }

  function fitSteps(el, prefix, steps, fits) {
    for (var step = 0; step < steps; step++) {
      withStep(el, prefix, step, steps);
      if (fits()) return;
    }
  }

  function fit() {
    var page = hall.querySelector("[data-hall-page]:not([hidden])");
    if (page) fitSteps(page, "hall-size-", TYPE_STEPS, function () { return fitsPage(page); });
    var title = hall.querySelector('[data-hall-fit="title"]');
    if (title) {
      var head = title.closest("header") || title;
      fitSteps(title, "hall-title-", TITLE_STEPS, function () {
        return whole(title) && head.scrollHeight <= head.clientHeight + 1;
      });
    }
    var winner = hall.querySelector('[data-hall-fit="winner"]');
    if (winner) fitSteps(winner, "hall-winner-", TITLE_STEPS, function () { return whole(winner); });
  }

  function show(wanted) {
    var all = pages();
    if (!all.length) return;
    index = ((wanted % all.length) + all.length) % all.length;
    Array.prototype.forEach.call(all, function (page, i) {
      page.hidden = i !== index;
    });
    hall.setAttribute("data-hall-showing", String(index + 1) + "/" + all.length);
  }

  function showAndFit(wanted) {
    show(wanted);
    fit();
  }

  hall.addEventListener("arbiter:refreshed", function () {
    var now = currentMode();
    if (now !== mode) index = 0;
    mode = now;
    showAndFit(Math.min(index, pages().length - 1));
  });
  window.addEventListener("resize", fit);

  showAndFit(0);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(fit);
  setInterval(function () {
    if (pages().length > 1) showAndFit(index + 1);
  }, seconds * 1000);

  // Between rounds the screen says when the next round starts ([data-hall-schedule]). Once
  // that time has passed and the round has not started, the server's expectation moves
  // with the clock: the screen is fetched again, at most once a minute, until it starts
  // (a start is a live notice of its own).
  var SCHEDULE_MS = 60000;
  setInterval(function () {
    var line = hall.querySelector("[data-hall-schedule][data-refresh-after]");
    if (!line || !window.arbiterLive) return;
    var after = Date.parse(line.getAttribute("data-refresh-after"));
    if (!isNaN(after) && Date.now() >= after + SCHEDULE_MS) window.arbiterLive.refreshAll();
  }, SCHEDULE_MS);
})();
