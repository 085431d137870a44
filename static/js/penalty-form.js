/* Only the two players of the chosen table are offered. */
(function () {
  var table = document.getElementById("penalty-match");
  var player = document.getElementById("penalty-player");
  function filter() {
    var chosen = table.options[table.selectedIndex];
    var allowed = chosen && chosen.dataset.players ? chosen.dataset.players.split(",") : null;
    Array.prototype.forEach.call(player.options, function (option) {
      option.hidden = Boolean(allowed && option.value && allowed.indexOf(option.value) < 0);
    });
    if (player.selectedOptions[0] && player.selectedOptions[0].hidden) player.value = "";
  }
  table.addEventListener("change", filter);
  filter();
})();
