/* Keeps what someone is typing in a live region (live.js): a region marked data-live-hold
   is not refetched while one of its fields holds text typed there; notices for it that
   arrive meanwhile are remembered, and the page catches up once the field is sent or
   emptied. Without it a result arriving from another table would wipe a score half typed. */
(function () {
  "use strict";
  var REFRESH = "data-live-refresh", HELD = "data-live-held";

  function typing(region) {
    var fields = region.querySelectorAll("input:not([type=hidden]), textarea");
    return Array.prototype.some.call(fields, function (field) { return field.value !== ""; });
  }

  function hold(region) {
    if (region.hasAttribute(HELD)) return;
    region.setAttribute(HELD, region.getAttribute(REFRESH) || "");
    region.removeAttribute(REFRESH);  // live.js refetches only regions that carry it
  }

  function release(region) {
    if (!region.hasAttribute(HELD)) return;
    region.setAttribute(REFRESH, region.getAttribute(HELD));
    region.removeAttribute(HELD);
    if (region.hasAttribute("data-live-missed") && window.arbiterLive) {
      region.removeAttribute("data-live-missed");
      window.arbiterLive.refreshAll();
    }
  }

  document.addEventListener("input", function (event) {
    var region = event.target.closest && event.target.closest("[data-live-hold]");
    if (region) (typing(region) ? hold : release)(region);
  });
  document.addEventListener("submit", function (event) {
    var region = event.target.closest && event.target.closest("[data-live-hold]");
    if (region) setTimeout(function () { release(region); }, 0);
  });
  document.addEventListener("arbiter:notice", function (event) {
    document.querySelectorAll("[" + HELD + "]").forEach(function (region) {
      if (region.getAttribute(HELD).split(/\s+/).indexOf(event.detail.type) >= 0) {
        region.setAttribute("data-live-missed", "");
      }
    });
  });
})();
