/* Deck builder helpers: add a searched card, accept a "did you mean" suggestion. */
(function () {
  var area = document.getElementById("decklist");
  function changed() { area.dispatchEvent(new Event("input", { bubbles: true })); }
  document.addEventListener("click", function (event) {
    var add = event.target.closest("[data-add-card]");
    if (add) {
      var count = document.getElementById("card-count").value || "1";
      var line = count + " " + add.dataset.addCard;
      var text = area.value.replace(/\s+$/, "");
      if (document.getElementById("to-sideboard").checked) {
        if (!/^\s*sideboard\b/im.test(text)) text += "\nSideboard";
        text += "\n" + line;
      } else {
        var at = text.search(/^\s*sideboard\b/im);
        text = at < 0 ? text + (text ? "\n" : "") + line : text.slice(0, at).replace(/\s+$/, "") + "\n" + line + "\n" + text.slice(at);
      }
      area.value = text + "\n";
      changed();
      return;
    }
    var fix = event.target.closest("[data-replace-line]");
    if (fix) {
      var lines = area.value.split("\n");
      var index = parseInt(fix.dataset.replaceLine, 10) - 1;
      if (lines[index] !== undefined) {
        lines[index] = lines[index].replace(fix.dataset.from, fix.dataset.to);
        area.value = lines.join("\n");
        changed();
      }
    }
  });
})();
