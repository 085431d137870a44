/* Hall display (templates/tournaments/hall.html): turns the pages by itself.

   Markup: <… data-hall data-hall-seconds="12"> around the screen; each screenful is a
   [data-hall-page], all but the one shown [hidden]; [data-hall-mode] names what the
   screen shows. live.js refetches the screen when the event changes; this keeps the
   page turning through it: the same page stays up after a refresh of the same mode (a
   result coming in does not send the screen back to page 1), a new mode or round starts
   at page 1. A fetch that fails changes nothing (live.js keeps the last content), and
   the timer never stops, so the screen keeps paging while the server is away. */
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

  function show(wanted) {
    var all = pages();
    if (!all.length) return;
    index = ((wanted % all.length) + all.length) % all.length;
    Array.prototype.forEach.call(all, function (page, i) {
      page.hidden = i !== index;
    });
    hall.setAttribute("data-hall-showing", String(index + 1) + "/" + all.length);
  }

  hall.addEventListener("arbiter:refreshed", function () {
    var now = currentMode();
    if (now !== mode) index = 0;
    mode = now;
    show(Math.min(index, pages().length - 1));
  });

  show(0);
  setInterval(function () {
    if (pages().length > 1) show(index + 1);
  }, seconds * 1000);
})();
