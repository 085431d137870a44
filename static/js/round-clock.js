/* Round clock: counts down to the round's end; negative time shows as overtime. */
(function () {
  function tick() {
    document.querySelectorAll(".clock[data-ends]").forEach(function (el) {
      // A table's clock ends its extension (data-extra, minutes) after the round's end.
      var ends = Date.parse(el.dataset.ends);
      if (isNaN(ends)) return;
      var extra = (parseInt(el.dataset.extra || "0", 10) || 0) * 60000;
      var left = Math.round((ends + extra - Date.now()) / 1000);
      var sign = left < 0 ? "+" : "";
      left = Math.abs(left);
      var text = sign + Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      el.textContent = text;
      el.classList.toggle("overtime", sign === "+");
    });
  }
  tick();
  setInterval(tick, 1000);
})();
