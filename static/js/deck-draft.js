/* The decklist editor keeps what is typed in this browser (localStorage, per event and
   user) until the server has the same text, so a session that expired or a refused form
   never loses a list: the box gets it back on the next visit, with a notice. */
(function () {
  var area = document.getElementById("decklist");
  if (!area || !area.dataset.draftKey || area.readOnly) return;
  var key = area.dataset.draftKey;
  var savedAt = parseInt(area.dataset.saved || "0", 10) * 1000;

  function read() {
    try { return JSON.parse(window.localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }
  function keep() {
    try {
      window.localStorage.setItem(key, JSON.stringify({ text: area.value, at: Date.now() }));
    } catch (e) { /* storage full or blocked: the server draft is all there is */ }
  }

  var copy = read();
  if (copy && typeof copy.text === "string") {
    if (copy.text === area.value) {
      window.localStorage.removeItem(key); // the server has it: nothing is unsaved
    } else if (copy.at > savedAt && copy.text.trim()) {
      area.value = copy.text; // typed here after the server's copy was saved
      var notice = document.getElementById("draft-restored");
      if (notice) notice.hidden = false;
      area.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
  area.addEventListener("input", keep);
  if (area.form) area.form.addEventListener("submit", keep);
})();
