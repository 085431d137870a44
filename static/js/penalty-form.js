/* Only the two players of the chosen table are offered: the list is rebuilt from every
   player (the page's template) each time the table changes, since a phone's picker
   shows options that are merely hidden. The server offers and accepts the same. */
(function () {
  var table = document.getElementById("penalty-match");
  var player = document.getElementById("penalty-player");
  var everyone = document.getElementById("penalty-all-players");
  if (!table || !player || !everyone) return;
  function filter() {
    var chosen = table.options[table.selectedIndex];
    var allowed = chosen && chosen.dataset.players ? chosen.dataset.players.split(",") : null;
    var kept = player.value;
    var first = player.options[0];
    while (player.options.length > 1) player.remove(1);
    Array.prototype.forEach.call(everyone.content.children, function (option) {
      if (!allowed || allowed.indexOf(option.value) >= 0) player.appendChild(option.cloneNode(true));
    });
    player.value = kept;
    if (player.value !== kept) player.value = first ? first.value : "";
  }
  table.addEventListener("change", filter);
  filter();
})();
